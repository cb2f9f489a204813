import { z } from 'zod';

import { storableText } from './storable-text';

/**
 * Competitor search (spec §2 Competitor search, §3 Competitor entry, filters and search result,
 * §4, §5, §7 `POST /api/brief/search-competitor-content`, §9; issue 13): what the six
 * competitors published in Poland lately on a topic, from GEM's own index of their Polish sites
 * (or a hosted web-search API, where a firm configures one).
 */

export const competitorSearchPaths = {
  /** POST a search request; a page of results back (spec §7). */
  search: '/api/brief/search-competitor-content',
  /** GET the competitors, with how fresh the index is for each. */
  competitors: '/api/competitor-search/competitors',
  /** POST a search's query and filters; every match counted per competitor and week back. */
  weeklyCounts: '/api/competitor-search/weekly-counts',
} as const;

/** Spec §9: page size, the default window and its units. */
export const COMPETITOR_PAGE_SIZE = 10;
export const DEFAULT_WINDOW_DAYS = 90;
export const windowUnits = ['d', 'w'] as const;
export type WindowUnit = (typeof windowUnits)[number];
/** The longest query accepted, in characters. */
export const COMPETITOR_QUERY_MAX = 200;
/** The furthest result a request may start at (1-based). */
export const COMPETITOR_START_MAX = 1_000;
/** The longest window: about ten years. */
export const WINDOW_MAX = { d: 3_650, w: 520 } as const;

export const searchSorts = ['date', 'relevance'] as const;
export type SearchSort = (typeof searchSorts)[number];

/** `d<N>` (the last N days) or `w<N>` (the last N weeks), N at least 1. */
export const dateRestrictSchema = z
  .string()
  .regex(/^[dw][1-9]\d{0,3}$/, {
    error: 'The window must be d<days> or w<weeks>, e.g. d90 or w12.',
    abort: true,
  })
  .refine((value) => Number(value.slice(1)) <= WINDOW_MAX[value[0] as WindowUnit], {
    error: `The window is too long: at most ${WINDOW_MAX.d} days or ${WINDOW_MAX.w} weeks.`,
  });

export const competitorSearchRequestSchema = z.object({
  query: storableText('The query')
    .trim()
    .min(1, { error: 'The query is empty.' })
    .max(COMPETITOR_QUERY_MAX, {
      error: `The query is too long: at most ${COMPETITOR_QUERY_MAX} characters.`,
    }),
  /** Results per page, 1 to 10. */
  num: z.number().int().min(1).max(COMPETITOR_PAGE_SIZE).default(COMPETITOR_PAGE_SIZE),
  /** The first result's position, from 1. */
  start: z.number().int().min(1).max(COMPETITOR_START_MAX).default(1),
  /** Only pages published in this window; none for any date. */
  dateRestrict: dateRestrictSchema.nullable().optional(),
  sort: z.enum(searchSorts).default('date'),
  /** One competitor's site without the scheme (host and path, e.g. `www.deloitte.com/pl/pl/`), or none for all. */
  siteSearch: z.string().max(300).nullable().optional(),
});
export type CompetitorSearchRequest = z.input<typeof competitorSearchRequestSchema>;
export type ParsedCompetitorSearchRequest = z.output<typeof competitorSearchRequestSchema>;

/** A part of a snippet: matched words are marked, and every part is plain text (never HTML). */
export const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

export const competitorSearchItemSchema = z.object({
  title: z.string(),
  /** The host without 'www.', as the result shows it. */
  displayLink: z.string(),
  /** Plain text. */
  snippet: z.string(),
  link: z.string(),
  /** The snippet in parts, with the matched words marked (for highlighting). */
  snippetParts: z.array(snippetPartSchema),
  /** ISO 8601, or null when the page gave no date. */
  publishedAt: z.string().nullable(),
  /** The competitor's key, when the page is on one of their sites. */
  competitorKey: z.string().nullable(),
  /** From the bundled sample corpus (fictional), shown with a 'Sample' tag. */
  sample: z.boolean(),
});
export type CompetitorSearchItem = z.infer<typeof competitorSearchItemSchema>;

/** How many matching pages a competitor published in one week (for the chart). */
export const weeklyCountSchema = z.object({
  /** The Monday the week starts on, YYYY-MM-DD. */
  weekStart: z.string(),
  competitorKey: z.string(),
  count: z.number().int().nonnegative(),
});
export type WeeklyCount = z.infer<typeof weeklyCountSchema>;

export const competitorSearchResponseSchema = z.object({
  items: z.array(competitorSearchItemSchema),
  searchInformation: z.object({
    /** e.g. '1,234'. */
    formattedTotalResults: z.string(),
    /** Seconds, e.g. '0.04'. */
    formattedSearchTime: z.string(),
    totalResults: z.number().int().nonnegative(),
    /**
     * The service stopped counting at totalResults ('1,000+'): there are more, and no weekly
     * counts (GEM's own index).
     */
    totalCapped: z.boolean().optional(),
  }),
  /** `nextPage[0].startIndex` is where the next page starts; absent at the end. */
  queries: z.object({
    nextPage: z.array(z.object({ startIndex: z.number().int().positive() })).optional(),
  }),
  /**
   * Every matching page in the window counted per competitor and week (first page only, and
   * only where the search service can count them: GEM's own index).
   */
  weeklyCounts: z.array(weeklyCountSchema).optional(),
});
export type CompetitorSearchResponse = z.infer<typeof competitorSearchResponseSchema>;

/**
 * A search's query and filters, for its weekly counts in full: what a search's first page leaves
 * out when its count stopped at the cap (GEM's own index only).
 */
export const competitorWeeklyCountsRequestSchema = competitorSearchRequestSchema.pick({
  query: true,
  dateRestrict: true,
  siteSearch: true,
});
export type CompetitorWeeklyCountsRequest = z.input<typeof competitorWeeklyCountsRequestSchema>;
export type ParsedCompetitorWeeklyCountsRequest = z.output<typeof competitorWeeklyCountsRequestSchema>;

export const competitorWeeklyCountsResponseSchema = z.object({
  /** Every matching page, dated or not. */
  total: z.number().int().nonnegative(),
  /** The dated ones per competitor and week, oldest week first. */
  weeklyCounts: z.array(weeklyCountSchema),
});
export type CompetitorWeeklyCountsResponse = z.infer<typeof competitorWeeklyCountsResponseSchema>;

export const competitorStatusSchema = z.object({
  key: z.string(),
  name: z.string(),
  /** The site GEM indexes, e.g. https://www.deloitte.com/pl/pl/. */
  site: z.string(),
  /** What `siteSearch` takes for this competitor: the site without the scheme. */
  siteSearch: z.string(),
  /** Pages in the index (sample pages included). */
  pages: z.number().int().nonnegative(),
  /** The last finished crawl, ISO 8601, or null. */
  lastCrawledAt: z.string().nullable(),
  /** What went wrong in the last crawl, in words for people; null when nothing did. */
  lastError: z.string().nullable(),
});
export type CompetitorStatus = z.infer<typeof competitorStatusSchema>;

export const competitorsResponseSchema = z.object({
  competitors: z.array(competitorStatusSchema),
  /** Which search service answers: GEM's own index, or a hosted web-search API. */
  provider: z.enum(['index', 'brave']),
  /** The index holds only the bundled sample corpus. */
  sample: z.boolean(),
  /** Crawling is on (GEM_COMPETITORS_CRAWL). */
  crawling: z.boolean(),
});
export type CompetitorsResponse = z.infer<typeof competitorsResponseSchema>;

/** A site as `siteSearch` names it: without the scheme (`https://www.x.com/pl/` → `www.x.com/pl/`). */
export const siteSearchOf = (site: string): string => site.replace(/^https?:\/\//i, '');
