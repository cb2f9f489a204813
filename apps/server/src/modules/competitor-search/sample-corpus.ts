import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Competitor } from '../../config';
import { appPath } from '../../config/app-dir';
import type { Db } from '../../db/client';
import { competitorPages } from '../../db/schema/competitor-search';
import type { Scheduler } from '../../lib/scheduler';
import { upsertCompetitorPages, type IndexedPage } from './competitor-index';

/**
 * The bundled sample corpus (apps/server/competitor-samples/corpus.json, made by
 * generate-corpus.mjs): fictional pages on `.example` hosts, marked as samples. With crawling
 * off and no real page in the index, GEM loads it at start and re-dates it daily (each page
 * keeps its age in hours), once across instances through the scheduler.
 */

export const SAMPLE_CORPUS_FILE = appPath('competitor-samples/corpus.json');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Pages written per transaction. */
const SAMPLE_BATCH = 25;

type SampleFile = {
  hosts: Record<string, string>;
  pages: {
    competitorKey: string;
    path: string;
    title: string;
    description: string;
    body: string;
    ageHours: number;
  }[];
};

/** The corpus's pages for the configured competitors, dated relative to `now`. */
export function samplePages(
  competitors: readonly Competitor[],
  now: Date,
  file = SAMPLE_CORPUS_FILE,
): IndexedPage[] {
  const corpus = JSON.parse(readFileSync(file, 'utf8')) as SampleFile;
  const keys = new Set(competitors.map((c) => c.key));
  return corpus.pages.flatMap((page) => {
    const host = corpus.hosts[page.competitorKey];
    if (!host || !keys.has(page.competitorKey)) return [];
    return [
      {
        competitorKey: page.competitorKey,
        url: new URL(page.path, host).href,
        title: page.title,
        description: page.description,
        bodyText: page.body,
        publishedAt: new Date(now.getTime() - page.ageHours * HOUR),
        sample: true,
      },
    ];
  });
}

/** Whether the index holds a real (crawled) page. */
async function hasRealPages(db: Db): Promise<boolean> {
  const rows = await db
    .select({ id: competitorPages.id })
    .from(competitorPages)
    .where(eq(competitorPages.sample, false))
    .limit(1);
  return rows.length > 0;
}

/**
 * Loads (or re-dates) the sample corpus unless the index holds real pages. Returns how many
 * sample pages were written. When `signal` aborts (the instance stops), it stops after the
 * batch being written and throws the signal's reason; the next run writes the rest.
 */
export async function loadSampleCorpus({
  db,
  competitors,
  now = new Date(),
  file,
  signal,
}: {
  db: Db;
  competitors: readonly Competitor[];
  now?: Date;
  file?: string;
  signal?: AbortSignal;
}): Promise<number> {
  if (await hasRealPages(db)) return 0;
  const pages = samplePages(competitors, now, file);
  // In small transactions: on the embedded database every statement's working memory comes
  // out of PGlite's WebAssembly heap, which grows to its peak and never shrinks
  // (bench/memory.md).
  for (let i = 0; i < pages.length; i += SAMPLE_BATCH) {
    signal?.throwIfAborted();
    await upsertCompetitorPages(db, pages.slice(i, i + SAMPLE_BATCH), now);
  }
  return pages.length;
}

/** Registers the daily sample load with the scheduler; nothing when crawling is on. */
export function scheduleSampleCorpus({
  db,
  competitors,
  crawl,
  scheduler,
  log,
}: {
  db: Db;
  competitors: readonly Competitor[];
  crawl: boolean;
  scheduler: Scheduler;
  log: FastifyBaseLogger;
}): void {
  if (crawl) return;
  scheduler.every({
    name: 'competitor-search.sample-corpus',
    intervalMs: DAY,
    leaseMs: 5 * 60 * 1000,
    async run(signal) {
      const loaded = await loadSampleCorpus({ db, competitors, signal });
      if (loaded > 0) log.info({ pages: loaded }, 'competitor search: sample corpus loaded');
    },
  });
}
