import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { competitorCrawls, competitorPages } from '../../../db/schema/competitor-search';
import { recordCrawl } from '../competitor-index';

/**
 * The crawler's reads of the competitor index at the start of a competitor's round. Its writes
 * (pages stored and removed, the round recorded) are competitor-index.ts's.
 */

/** A crawled page in the index: what a conditional GET and the frontier's order need. */
export type StoredPage = { etag: string | null; lastModified: string | null; fetchedAt: Date };

export type CrawlStart = {
  /** When the competitor's last round started; null before the first. */
  since: Date | null;
  /** The competitor's crawled pages (not the samples) by URL. */
  stored: Map<string, StoredPage>;
};

/** Records the round as started at `startedAt` and reads what it starts from. */
export async function startCrawl(db: Db, key: string, startedAt: Date): Promise<CrawlStart> {
  const [previous] = await db
    .select({ lastStartedAt: competitorCrawls.lastStartedAt })
    .from(competitorCrawls)
    .where(eq(competitorCrawls.competitorKey, key));
  await recordCrawl(db, key, { startedAt, finishedAt: null, error: null, pages: 0 });

  const stored = new Map<string, StoredPage>();
  for (const row of await db
    .select({
      url: competitorPages.url,
      etag: competitorPages.etag,
      lastModified: competitorPages.lastModified,
      fetchedAt: competitorPages.fetchedAt,
      sample: competitorPages.sample,
    })
    .from(competitorPages)
    .where(eq(competitorPages.competitorKey, key))) {
    if (!row.sample) stored.set(row.url, row);
  }
  return { since: previous?.lastStartedAt ?? null, stored };
}
