import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { marketFeedItems, marketFeeds } from '../../db/schema/market-research';
import type { FeedSource } from '../../integrations/feeds/feeds-file';
import { isSampleUrl } from '../../integrations/feeds/feeds-file';
import type { NormalisedItem } from '../../integrations/feeds/parse-feed';
import { searchVector as foldedVector } from '../../lib/search-text';

/** The writes of feed ingestion. Every statement is safe to run from several instances at once. */

export type RoundFeed = {
  key: string;
  url: string;
  etag: string | null;
  lastModified: string | null;
  contentHash: string | null;
};

/**
 * Makes the feed rows match the feeds file. A feed whose URL changed forgets its HTTP
 * validators; one that moved between sample and real content also drops its items, so
 * sample items never show as real ones (or the other way round).
 */
export async function syncSources(db: Db, sources: readonly FeedSource[]): Promise<void> {
  if (sources.length === 0) return;
  const existing = await db
    .select({ key: marketFeeds.key, url: marketFeeds.url })
    .from(marketFeeds)
    .where(
      inArray(
        marketFeeds.key,
        sources.map((s) => s.key),
      ),
    );
  const known = new Map(existing.map((row) => [row.key, row.url]));
  for (const source of sources) {
    const before = known.get(source.key);
    if (before === undefined) {
      await db.insert(marketFeeds).values({ key: source.key, url: source.url }).onConflictDoNothing();
    } else if (before !== source.url) {
      await db.transaction(async (tx) => {
        await tx
          .update(marketFeeds)
          .set({ url: source.url, etag: null, lastModified: null, contentHash: null, lastAttemptAt: null })
          .where(eq(marketFeeds.key, source.key));
        if (isSampleUrl(before) !== isSampleUrl(source.url)) {
          await tx.delete(marketFeedItems).where(eq(marketFeedItems.feedKey, source.key));
        }
      });
    }
  }
}

/**
 * Starts a round: marks the feeds among `keys` as attempted at `at` and returns what their
 * reads need, in key order. Only the instance holding the round's scheduler lease calls it.
 */
export async function startRound(db: Db, keys: readonly string[], at: Date): Promise<RoundFeed[]> {
  if (keys.length === 0) return [];
  const feeds = await db
    .update(marketFeeds)
    .set({ lastAttemptAt: at })
    .where(inArray(marketFeeds.key, [...keys]))
    .returning({
      key: marketFeeds.key,
      url: marketFeeds.url,
      etag: marketFeeds.etag,
      lastModified: marketFeeds.lastModified,
      contentHash: marketFeeds.contentHash,
    });
  return feeds.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Whether a feed among `keys` has not been read since it was added or its URL changed. */
export async function hasUnreadFeeds(db: Db, keys: readonly string[]): Promise<boolean> {
  if (keys.length === 0) return false;
  const unread = await db
    .select({ key: marketFeeds.key })
    .from(marketFeeds)
    .where(and(inArray(marketFeeds.key, [...keys]), isNull(marketFeeds.lastAttemptAt)))
    .limit(1);
  return unread.length > 0;
}

const successFields = (now: Date) => ({
  lastSuccessAt: now,
  lastError: null,
  failingSince: null,
  consecutiveFailures: 0,
});

/** The document had not changed (304, or the same bytes): only the success is recorded. */
export async function recordUnchanged(db: Db, key: string, now: Date): Promise<void> {
  await db.update(marketFeeds).set(successFields(now)).where(eq(marketFeeds.key, key));
}

/** Records why a read failed. The feed's items stay as they were. */
export async function recordFailure(db: Db, key: string, message: string, now: Date): Promise<void> {
  await db
    .update(marketFeeds)
    .set({
      lastFailureAt: now,
      lastError: message.slice(0, 500),
      failingSince: sql`coalesce(${marketFeeds.failingSince}, ${now.toISOString()}::timestamptz)`,
      consecutiveFailures: sql`${marketFeeds.consecutiveFailures} + 1`,
    })
    .where(eq(marketFeeds.key, key));
}

/** Title (weight A), then text and authors (B). */
const searchVector = (item: NormalisedItem) =>
  foldedVector({ A: item.title, B: `${item.contentText} ${item.authors.join(' ')}` });

/**
 * Stores a document's items and the success, in one transaction. An item already stored with
 * the same id or the same canonical URL is updated in place; the rest are added. The unique
 * indexes on both keys make a concurrent duplicate impossible (it is skipped, not added).
 */
export async function saveDocument(
  db: Db,
  key: string,
  items: readonly NormalisedItem[],
  validators: { etag: string | null; lastModified: string | null; contentHash: string },
  now: Date,
): Promise<{ added: number; updated: number }> {
  return db.transaction(async (tx) => {
    const guids = items.flatMap((i) => (i.guid ? [i.guid] : []));
    const urls = items.map((i) => i.canonicalUrl);
    const existing =
      items.length === 0
        ? []
        : await tx
            .select({
              id: marketFeedItems.id,
              guid: marketFeedItems.guid,
              canonicalUrl: marketFeedItems.canonicalUrl,
            })
            .from(marketFeedItems)
            .where(
              and(
                eq(marketFeedItems.feedKey, key),
                or(
                  guids.length > 0 ? inArray(marketFeedItems.guid, guids) : undefined,
                  inArray(marketFeedItems.canonicalUrl, urls),
                ),
              ),
            );
    const byGuid = new Map(existing.filter((r) => r.guid).map((r) => [r.guid!, r.id]));
    const byUrl = new Map(existing.filter((r) => r.canonicalUrl).map((r) => [r.canonicalUrl!, r.id]));

    const fresh: NormalisedItem[] = [];
    let updated = 0;
    for (const item of items) {
      const id = (item.guid ? byGuid.get(item.guid) : undefined) ?? byUrl.get(item.canonicalUrl);
      if (id === undefined) {
        fresh.push(item);
        continue;
      }
      // The dedupe keys stay as first stored: changing them could collide with another row.
      await tx
        .update(marketFeedItems)
        .set({
          title: item.title,
          url: item.url,
          imageUrl: item.imageUrl,
          publishedAt: item.publishedAt,
          contentText: item.contentText,
          authors: item.authors,
          lastSeenAt: now,
          sortAt: sql`least(coalesce(${item.publishedAt?.toISOString() ?? null}::timestamptz, ${marketFeedItems.firstSeenAt}), ${marketFeedItems.firstSeenAt})`,
          searchVector: searchVector(item),
        })
        .where(eq(marketFeedItems.id, id));
      updated += 1;
    }

    let added = 0;
    if (fresh.length > 0) {
      const rows = await tx
        .insert(marketFeedItems)
        .values(
          fresh.map((item) => ({
            feedKey: key,
            guid: item.guid,
            canonicalUrl: item.canonicalUrl,
            title: item.title,
            url: item.url,
            imageUrl: item.imageUrl,
            publishedAt: item.publishedAt,
            contentText: item.contentText,
            authors: item.authors,
            firstSeenAt: now,
            lastSeenAt: now,
            // A future date (a feed's clock or a typo) must not pin an item to the top.
            sortAt: item.publishedAt && item.publishedAt < now ? item.publishedAt : now,
            searchVector: searchVector(item),
          })),
        )
        .onConflictDoNothing()
        .returning({ id: marketFeedItems.id });
      added = rows.length;
    }

    await tx
      .update(marketFeeds)
      .set({ ...successFields(now), ...validators })
      .where(eq(marketFeeds.key, key));
    return { added, updated };
  });
}

/** Deletes items older than the cutoff (by date, or by when they were first seen if undated). */
export async function purgeItemsBefore(db: Db, cutoff: Date): Promise<number> {
  const rows = await db
    .delete(marketFeedItems)
    .where(lt(marketFeedItems.sortAt, cutoff))
    .returning({ id: marketFeedItems.id });
  return rows.length;
}
