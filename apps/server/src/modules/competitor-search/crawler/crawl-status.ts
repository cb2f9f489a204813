import { count, sql } from 'drizzle-orm';
import type { Competitor } from '../../../config/competitors';
import type { Db } from '../../../db/client';
import { competitorCrawls, competitorPages } from '../../../db/schema/competitor-search';

/** Each competitor's part of the index and its last crawl, for `gem competitors status`. */

export type CompetitorCrawlStatus = {
  key: string;
  name: string;
  site: string;
  /** Crawled pages in the index. */
  pages: number;
  /** Sample pages in the index (the bundled corpus, until the first crawl stores real pages). */
  samplePages: number;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  /** A round started after the last one finished: running now, or cut short. */
  unfinished: boolean;
  pagesLastRound: number;
  lastError: string | null;
};

export async function crawlStatus(
  db: Db,
  competitors: readonly Competitor[],
): Promise<CompetitorCrawlStatus[]> {
  const counts = await db
    .select({
      key: competitorPages.competitorKey,
      pages: sql<number>`count(*) filter (where not ${competitorPages.sample})`.mapWith(Number),
      samples: count(),
    })
    .from(competitorPages)
    .groupBy(competitorPages.competitorKey);
  const crawls = await db.select().from(competitorCrawls);
  return competitors.map(({ key, name, site }) => {
    const c = counts.find((row) => row.key === key);
    const crawl = crawls.find((row) => row.competitorKey === key);
    const started = crawl?.lastStartedAt ?? null;
    const finished = crawl?.lastFinishedAt ?? null;
    return {
      key,
      name,
      site,
      pages: c?.pages ?? 0,
      samplePages: (c?.samples ?? 0) - (c?.pages ?? 0),
      lastStartedAt: started,
      lastFinishedAt: finished,
      unfinished: started !== null && (finished === null || finished < started),
      pagesLastRound: crawl?.pagesLastRound ?? 0,
      lastError: crawl?.lastError ?? null,
    };
  });
}
