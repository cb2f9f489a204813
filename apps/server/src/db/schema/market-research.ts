import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tsvector } from './column-types';

/** Market Research: one row per configured feed and the items read from it (modules/market-research). */

/**
 * A feed named in the feeds file, keyed "area" or "area/sub-area". It remembers the HTTP
 * validators for conditional GET and the last attempt, success and failure. Which instance
 * reads the feeds is the scheduler's lease (scheduled_tasks), not a column here.
 */
export const marketFeeds = pgTable('market_feeds', {
  key: text('key').primaryKey(),
  url: text('url').notNull(),
  etag: text('etag'),
  lastModified: text('last_modified'),
  /** sha256 of the last document parsed: an unchanged document is not written again. */
  contentHash: text('content_hash'),
  /** When a round last started reading this feed; null for a feed not read since it was added or changed. */
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  /** The first failure of the current run of failures; null once a read succeeds again. */
  failingSince: timestamp('failing_since', { withTimezone: true }),
  /** Why the last read failed (for the logs and operators; never sent to the browser). */
  lastError: text('last_error'),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A feed item, normalised to the spec's Feed item fields. Deduplicated per feed by the
 * item's own id (`guid`) and by its URL without utm_* parameters (`canonicalUrl`).
 */
export const marketFeedItems = pgTable(
  'market_feed_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    feedKey: text('feed_key')
      .notNull()
      .references(() => marketFeeds.key, { onDelete: 'cascade' }),
    guid: text('guid'),
    canonicalUrl: text('canonical_url'),
    title: text('title').notNull(),
    url: text('url').notNull(),
    imageUrl: text('image_url'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    contentText: text('content_text').notNull().default(''),
    authors: jsonb('authors').$type<string[]>().notNull().default([]),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When GEM first read a document of the feed that no longer lists the item; null while the
     * feed's last good document lists it. Retention counts from here (feed-store purgeDroppedItems):
     * an item the source still lists is kept whatever its date.
     */
    leftAt: timestamp('left_at', { withTimezone: true }),
    /** Newest-first order: the publication date, or when GEM first saw an undated or future-dated item. */
    sortAt: timestamp('sort_at', { withTimezone: true }).notNull(),
    /** Title (weight A) and text and authors (B), folded to plain ASCII, for full-text search. */
    searchVector: tsvector('search_vector').notNull(),
  },
  (t) => [
    uniqueIndex('market_feed_items_guid_key')
      .on(t.feedKey, t.guid)
      .where(sql`${t.guid} is not null`),
    uniqueIndex('market_feed_items_canonical_url_key')
      .on(t.feedKey, t.canonicalUrl)
      .where(sql`${t.canonicalUrl} is not null`),
    index('market_feed_items_page_idx').on(t.feedKey, t.sortAt.desc(), t.id.desc()),
    index('market_feed_items_left_at_idx')
      .on(t.leftAt)
      .where(sql`${t.leftAt} is not null`),
    index('market_feed_items_search_idx').using('gin', t.searchVector),
  ],
);
