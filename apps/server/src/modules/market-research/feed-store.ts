import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { and, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { marketFeedItems, marketFeeds } from '../../db/schema/market-research';
import type { FeedSource } from '../../integrations/feeds/feeds-file';
import { isSampleUrl } from '../../integrations/feeds/feeds-file';
import type { NormalisedItem } from '../../integrations/feeds/parsed-feed';
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
      lastError: cutAtGrapheme(message, 500),
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
 * Every item the document lists is kept whatever its date (`leftAt` null); the feed's stored
 * items it no longer lists are marked as having left it now, which starts their retention period.
 * `redated`: GEM moved the document's dates itself (the bundled samples, shiftSampleDates).
 */
export async function saveDocument(
  db: Db,
  key: string,
  items: readonly NormalisedItem[],
  validators: { etag: string | null; lastModified: string | null; contentHash: string },
  now: Date,
  { redated = false }: { redated?: boolean } = {},
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
      // A feed's later date cannot lift an item above when GEM first saw it; GEM's own re-dating
      // of the samples (every day) moves it up to now, so they stay in date order.
      const latest = redated ? sql`${now.toISOString()}::timestamptz` : marketFeedItems.firstSeenAt;
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
          // Listed again (a feed may drop an item and bring it back).
          leftAt: null,
          sortAt: sql`least(coalesce(${item.publishedAt?.toISOString() ?? null}::timestamptz, ${marketFeedItems.firstSeenAt}), ${latest})`,
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

    // What the document does not list has left it. Matched by the document's keys, as the
    // dedupe above is, not by the ids it touched: a row a concurrent save of the same document
    // added (skipped above as a conflict) is listed too. `coalesce`: a null key matches nothing.
    const listed = or(
      sql`coalesce(${guids.length > 0 ? inArray(marketFeedItems.guid, guids) : sql`false`}, false)`,
      sql`coalesce(${urls.length > 0 ? inArray(marketFeedItems.canonicalUrl, urls) : sql`false`}, false)`,
    );
    await tx
      .update(marketFeedItems)
      .set({ leftAt: now })
      .where(and(eq(marketFeedItems.feedKey, key), isNull(marketFeedItems.leftAt), sql`not ${listed}`));

    await tx
      .update(marketFeeds)
      .set({ ...successFields(now), ...validators })
      .where(eq(marketFeeds.key, key));
    return { added, updated };
  });
}

/**
 * The retention rule. An item is deleted only once it has left its feed's document and that
 * was before `cutoff` (now minus GEM_FEEDS_RETENTION_DAYS): "older" counts from when the item
 * left (`leftAt`, the first document GEM read without it), never from the item's own date. So
 * every item a configured feed lists stays, however old; a failed read, a 304 or an unchanged
 * document keeps the last good document and therefore its items; an item the feed dropped is
 * kept for the retention period after it left.
 *
 * A feed no longer in the feeds file (`configuredKeys`) lists nothing GEM shows: its items go
 * once they left, or the feed was last read successfully, before the cutoff.
 */
export async function purgeDroppedItems(
  db: Db,
  configuredKeys: readonly string[],
  cutoff: Date,
): Promise<number> {
  const feedLastRead = db
    .select({ at: marketFeeds.lastSuccessAt })
    .from(marketFeeds)
    .where(eq(marketFeeds.key, marketFeedItems.feedKey));
  const rows = await db
    .delete(marketFeedItems)
    .where(
      or(
        lt(marketFeedItems.leftAt, cutoff),
        and(
          notInArray(marketFeedItems.feedKey, [...configuredKeys]),
          sql`coalesce(${marketFeedItems.leftAt}, (${feedLastRead}), ${marketFeedItems.lastSeenAt}) < ${cutoff.toISOString()}::timestamptz`,
        ),
      ),
    )
    .returning({ id: marketFeedItems.id });
  return rows.length;
}
