import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { textC, tsvector } from './column-types';

/**
 * GEM's own index of the competitors' Polish sites (issue 13): one row per page, found by the
 * crawler (or loaded from the bundled sample corpus), searched with PostgreSQL full-text search.
 */
export const competitorPages = pgTable(
  'competitor_pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The competitor's key in the competitors file, e.g. 'deloitte'. */
    competitorKey: text('competitor_key').notNull(),
    /** The page's canonical URL: one row per page, whatever tracking parameters led to it. */
    url: text('url').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** The main text (readability), capped; snippets come from it. */
    bodyText: text('body_text').notNull().default(''),
    /** Article metadata or JSON-LD datePublished, else the sitemap's lastmod; null when none. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** From the bundled, fictional sample corpus ('Sample' on the page). */
    sample: boolean('sample').notNull().default(false),
    /** The validators of the last fetch, for a conditional GET next time. */
    etag: text('etag'),
    lastModified: text('last_modified'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
    /** Accent-folded title (A), description (B) and main text (C): lib/search-text.ts. */
    searchVector: tsvector('search_vector').notNull(),
  },
  (t) => [
    uniqueIndex('competitor_pages_url_key').on(t.url),
    index('competitor_pages_search_idx').using('gin', t.searchVector),
    index('competitor_pages_competitor_published_idx').on(t.competitorKey, t.publishedAt.desc()),
    index('competitor_pages_published_idx').on(t.publishedAt.desc()),
  ],
);

/**
 * Every lexeme of every page's search_vector, kept by a trigger on competitor_pages (migration
 * 0009: whatever writes a page adds its lexemes, in the same transaction); never removed, since a
 * lexeme no page has any more matches nothing. A search turns a prefix ('podatk':*) into the few
 * lexemes it stands for ('podatki' | 'podatkowy'): the same matches, which the GIN index finds
 * without first reading every match of the prefix into a bitmap (index-search.ts,
 * bench/competitor-search.md).
 */
export const competitorLexemes = pgTable('competitor_lexemes', {
  lexeme: textC('lexeme').primaryKey(),
});

/** Each competitor's last crawl, for the status line and `gem competitors status`. */
export const competitorCrawls = pgTable('competitor_crawls', {
  competitorKey: text('competitor_key').primaryKey(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  /** What went wrong in the last crawl (for people), or null. */
  lastError: text('last_error'),
  /** Pages fetched and stored in the last crawl. */
  pagesLastRound: integer('pages_last_round').notNull().default(0),
});
