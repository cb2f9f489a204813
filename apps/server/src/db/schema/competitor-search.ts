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
    /**
     * Accent-folded title (A), description (B) and main text (C): lib/search-text.ts. Searched
     * in its copy in competitor_page_terms.
     */
    searchVector: tsvector('search_vector').notNull(),
  },
  (t) => [
    uniqueIndex('competitor_pages_url_key').on(t.url),
    // The crawler lists a competitor's pages by it. A search reads competitor_page_terms.
    index('competitor_pages_competitor_published_idx').on(t.competitorKey, t.publishedAt.desc()),
  ],
);

/**
 * What a search matches, counts and ranks, one narrow row per page (migration 0010): the page's
 * competitor, date and search_vector, copied by triggers on competitor_pages in the writer's own
 * transaction (and deleted with the page). The vector is stored inline (STORAGE MAIN, no
 * compression up to a full page), so checking a row reads no TOAST, and competitor_pages is read
 * for the ten rows of a page only; the competitors' status count, a full scan of
 * competitor_pages, keeps its small heap (bench/competitor-search.md).
 */
export const competitorPageTerms = pgTable(
  'competitor_page_terms',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => competitorPages.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    competitorKey: text('competitor_key').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    searchVector: tsvector('search_vector').notNull(),
  },
  (t) => [
    index('competitor_page_terms_search_idx').using('gin', t.searchVector),
    // Newest first with the id as the tie-break: the order of a search's page, which the walk
    // (competitor_walk, migration 0011) reads in.
    index('competitor_page_terms_competitor_published_idx').on(
      t.competitorKey,
      t.publishedAt.desc(),
      t.id.desc(),
    ),
    index('competitor_page_terms_published_idx').on(t.publishedAt.desc(), t.id.desc()),
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
