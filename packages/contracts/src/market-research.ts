import { z } from 'zod';

/**
 * Market Research (spec §2 area pages, §3 Market area and Feed, §4 Market feed). The areas
 * and their names come from the catalogue (`catalogue.ts`); GEM's server ingests each area's
 * feed and the browser reads the stored items from these endpoints.
 */
export const marketResearchPaths = {
  /** GET: every area with its sub-areas and whether a feed is configured for each. */
  markets: '/api/markets',
  /** GET: an area and a page of its items. */
  market: '/api/markets/:marketId',
  /** GET: a sub-area and a page of its items. */
  subMarket: '/api/markets/:marketId/:subMarketId',
} as const;

/** The path of an area's or sub-area's items, for the browser. */
export function marketFeedPath(marketId: string, subMarketId?: string): string {
  const base = `/api/markets/${encodeURIComponent(marketId)}`;
  return subMarketId ? `${base}/${encodeURIComponent(subMarketId)}` : base;
}

/** The feeds file key of an area ("technology") or a sub-area ("priority-clients/orlen"). */
export function feedKey(marketId: string, subMarketId?: string): string {
  return subMarketId ? `${marketId}/${subMarketId}` : marketId;
}

/** Spec §8: what the call says when the market does not exist. */
export const MARKET_NOT_FOUND = 'Market not found';

/** Items per page: the default and the most one request may ask for. */
export const FEED_PAGE_SIZE = 20;
export const FEED_PAGE_SIZE_MAX = 50;
/** The longest search text accepted. */
export const FEED_QUERY_MAX = 200;

/** One feed item, with the spec's Feed item field names (§3, JSON Feed's names). */
export const feedItemSchema = z.object({
  /** GEM's own id for the stored item (stable across refreshes). */
  id: z.string(),
  title: z.string(),
  /** The article; http or https. */
  url: z.string(),
  /** An http(s) image address, a path on GEM (sample items), or null: the page shows a blank box. */
  image: z.string().nullable(),
  /** ISO 8601, or null when the feed gave no date ('no date'). */
  date_published: z.string().nullable(),
  /** Plain text: the item's HTML reduced to text, shortened to an excerpt. */
  content_text: z.string(),
  /** In feed order; the pwc area shows the first author's name as the source. */
  authors: z.array(z.object({ name: z.string() })),
});
export type FeedItem = z.infer<typeof feedItemSchema>;

/** How the area's feed is doing. */
export const feedStatusSchema = z.object({
  /** false: the feeds file has no URL for this area ('no feed configured'). */
  configured: z.boolean(),
  /** The items are GEM's bundled, fictional sample content. */
  sample: z.boolean(),
  /** The last time the feed was read successfully (ISO 8601); null before the first success. */
  lastRefreshedAt: z.string().nullable(),
  /** The last time a read failed, when that is more recent than the last success. */
  failingSince: z.string().nullable(),
});
export type FeedStatus = z.infer<typeof feedStatusSchema>;

const subMarketSummarySchema = z.object({
  slug: z.string(),
  name: z.string(),
  feedConfigured: z.boolean(),
});

export const marketSummarySchema = z.object({
  slug: z.string(),
  name: z.string(),
  summary: z.string(),
  photo: z.string(),
  feedConfigured: z.boolean(),
  children: z.array(subMarketSummarySchema),
});
export type MarketSummary = z.infer<typeof marketSummarySchema>;

export const marketsResponseSchema = z.object({ markets: z.array(marketSummarySchema) });
export type MarketsResponse = z.infer<typeof marketsResponseSchema>;

export const marketParamsSchema = z.object({ marketId: z.string().max(100) });
export const subMarketParamsSchema = z.object({
  marketId: z.string().max(100),
  subMarketId: z.string().max(100),
});

export const marketFeedQuerySchema = z.object({
  /** From the previous page's `nextCursor`. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(FEED_PAGE_SIZE_MAX).default(FEED_PAGE_SIZE),
  /** Full-text search within the area's items. */
  q: z.string().max(FEED_QUERY_MAX).optional(),
});
export type MarketFeedQuery = z.input<typeof marketFeedQuerySchema>;

export const marketFeedResponseSchema = z.object({
  market: z.object({
    slug: z.string(),
    name: z.string(),
    /** The sub-area when the page is one, else null. */
    subMarket: z.object({ slug: z.string(), name: z.string() }).nullable(),
    /** The area's sub-areas (also shown on a sub-area's page). */
    children: z.array(z.object({ slug: z.string(), name: z.string() })),
  }),
  feed: feedStatusSchema,
  /** Newest first. */
  items: z.array(feedItemSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type MarketFeedResponse = z.infer<typeof marketFeedResponseSchema>;
