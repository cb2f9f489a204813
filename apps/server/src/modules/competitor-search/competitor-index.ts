import { toStorableText } from '@gem/contracts/storable-text';
import { withoutBidiControls } from '@gem/contracts/text-rules';
import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { competitorCrawls, competitorPages } from '../../db/schema/competitor-search';
import { searchVector } from '../../lib/search-text';

/**
 * The writes of GEM's competitor index (issue 13), for the crawler and the sample corpus
 * loader. Every statement is safe to run from several instances at once.
 */

export type IndexedPage = {
  competitorKey: string;
  /** The canonical URL: one row per URL. */
  url: string;
  title: string;
  description: string;
  bodyText: string;
  publishedAt: Date | null;
  /** From the bundled sample corpus. */
  sample?: boolean;
  etag?: string | null;
  lastModified?: string | null;
};

/** The most of each text kept: snippets and ranking need no more, and a tsvector has a size limit. */
export const TITLE_MAX = 500;
export const DESCRIPTION_MAX = 2_000;
export const BODY_MAX = 50_000;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\v\f\u000e-\u001f\u007f]/g;

/**
 * Text as the index keeps it, cleaned as Market Research cleans feed text: storable (no NUL, no
 * half surrogate pair), composed (NFC), no bidirectional controls or other control characters, whitespace
 * collapsed, and capped (never in the middle of a surrogate pair).
 */
export function cleanIndexText(text: string, max: number): string {
  // NFC: one code point per accented letter, so snippets fold it in place.
  const clean = withoutBidiControls(toStorableText(text).normalize('NFC'))
    .replace(CONTROL_CHARACTERS, '')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length <= max ? clean : cutAtGrapheme(clean, max).trimEnd();
}

const rowOf = (page: IndexedPage, now: Date) => {
  const title = cleanIndexText(page.title, TITLE_MAX);
  const description = cleanIndexText(page.description, DESCRIPTION_MAX);
  const bodyText = cleanIndexText(page.bodyText, BODY_MAX);
  return {
    competitorKey: page.competitorKey,
    url: page.url,
    title,
    description,
    bodyText,
    publishedAt: page.publishedAt,
    sample: page.sample ?? false,
    etag: page.etag ?? null,
    lastModified: page.lastModified ?? null,
    fetchedAt: now,
    searchVector: searchVector({ A: title, B: description, C: bodyText }),
  };
};

/**
 * Adds or updates pages (by URL), in one statement per batch. A real (not sample) page also
 * removes its competitor's sample pages: real pages replace the samples as the first crawl of
 * each competitor stores them.
 */
export async function upsertCompetitorPages(
  db: Db,
  pages: readonly IndexedPage[],
  now: Date = new Date(),
): Promise<void> {
  if (pages.length === 0) return;
  // One row per URL in a statement: ON CONFLICT cannot touch a row twice.
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  const rows = [...byUrl.values()].map((page) => rowOf(page, now));
  const realKeys = [...new Set(rows.filter((r) => !r.sample).map((r) => r.competitorKey))];
  await db.transaction(async (tx) => {
    if (realKeys.length > 0) {
      await tx
        .delete(competitorPages)
        .where(and(eq(competitorPages.sample, true), inArray(competitorPages.competitorKey, realKeys)));
    }
    for (let i = 0; i < rows.length; i += 200) {
      await tx
        .insert(competitorPages)
        .values(rows.slice(i, i + 200))
        .onConflictDoUpdate({
          target: competitorPages.url,
          set: {
            competitorKey: sql`excluded.competitor_key`,
            title: sql`excluded.title`,
            description: sql`excluded.description`,
            bodyText: sql`excluded.body_text`,
            publishedAt: sql`excluded.published_at`,
            sample: sql`excluded.sample`,
            etag: sql`excluded.etag`,
            lastModified: sql`excluded.last_modified`,
            fetchedAt: sql`excluded.fetched_at`,
            searchVector: sql`excluded.search_vector`,
          },
        });
    }
  });
}

/** Adds or updates one page (by URL); see upsertCompetitorPages. */
export async function upsertCompetitorPage(db: Db, page: IndexedPage): Promise<void> {
  await upsertCompetitorPages(db, [page]);
}

/** Removes pages by URL (gone from the site, or no longer under it). */
export async function removeCompetitorPages(db: Db, urls: readonly string[]): Promise<void> {
  for (let i = 0; i < urls.length; i += 500) {
    await db.delete(competitorPages).where(inArray(competitorPages.url, urls.slice(i, i + 500)));
  }
}

export type CrawlRecord = {
  startedAt: Date;
  finishedAt: Date | null;
  /** What went wrong, for people; null when nothing did. */
  error: string | null;
  /** Pages fetched and stored in the round. */
  pages: number;
};

/** Records a competitor's crawl round (its start, or its end) for the status line. */
export async function recordCrawl(db: Db, competitorKey: string, crawl: CrawlRecord): Promise<void> {
  const values = {
    competitorKey,
    lastStartedAt: crawl.startedAt,
    lastFinishedAt: crawl.finishedAt,
    lastError: crawl.error === null ? null : cleanIndexText(crawl.error, 500),
    pagesLastRound: crawl.pages,
  };
  await db
    .insert(competitorCrawls)
    .values(values)
    .onConflictDoUpdate({
      target: competitorCrawls.competitorKey,
      set: {
        lastStartedAt: values.lastStartedAt,
        // A round that has only started keeps the last finished one's time.
        lastFinishedAt: crawl.finishedAt ?? sql`${competitorCrawls.lastFinishedAt}`,
        lastError: values.lastError,
        pagesLastRound: values.pagesLastRound,
      },
    });
}
