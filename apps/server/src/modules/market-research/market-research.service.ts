import { findMarketArea, marketAreas } from '@gem/contracts/catalogue';
import {
  feedKey,
  FEED_PAGE_SIZE,
  MARKET_NOT_FOUND,
  type FeedItem,
  type MarketFeedResponse,
  type MarketsResponse,
} from '@gem/contracts/market-research';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { marketFeedItems, marketFeeds } from '../../db/schema/market-research';
import { isSampleUrl, type FeedSource } from '../../integrations/feeds/feeds-file';
import { AppError } from '../../lib/app-error';
import { constantAnswer } from '../../lib/http/serializer';
import { matchesSearch } from '../../lib/search-text';

/** Reads for the Market Research pages: the catalogue with feed status, and pages of items. */

export type FeedPageQuery = { cursor?: string | undefined; limit?: number; q?: string | undefined };

type Cursor = { sortAt: Date; id: number };

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.sortAt.getTime()}.${cursor.id}`).toString('base64url');
}

// The last millisecond of year 9999: later dates print as "+010000-…", which PostgreSQL refuses.
const LATEST_CURSOR_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function decodeCursor(raw: string): Cursor {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  const ms = Number(match?.[1]);
  if (!match || ms > LATEST_CURSOR_MS) {
    throw new AppError(400, 'bad_request', 'The page cursor is not valid. Load the list again.');
  }
  return { sortAt: new Date(ms), id: Number(match[2]) };
}

export type MarketResearchService = ReturnType<typeof createMarketResearchService>;

export function createMarketResearchService({ db, sources }: { db: Db; sources: readonly FeedSource[] }) {
  const urlByKey = new Map(sources.map((s) => [s.key, s.url]));

  // The catalogue and which feeds are configured: fixed while the process runs.
  const markets = constantAnswer<MarketsResponse>({
    markets: marketAreas.map((area) => ({
      slug: area.slug,
      name: area.name,
      summary: area.summary,
      photo: area.photo,
      feedConfigured: urlByKey.has(area.slug),
      children: area.children.map((child) => ({
        slug: child.slug,
        name: child.name,
        feedConfigured: urlByKey.has(feedKey(area.slug, child.slug)),
      })),
    })),
  });

  function listMarkets(): Readonly<MarketsResponse> {
    return markets;
  }

  /** One stored item by its id (as a page shows it), or null when there is none. */
  async function getItem(id: string): Promise<{ title: string; url: string; contentText: string } | null> {
    if (!/^\d{1,15}$/.test(id)) return null;
    const [row] = await db
      .select({
        title: marketFeedItems.title,
        url: marketFeedItems.url,
        contentText: marketFeedItems.contentText,
      })
      .from(marketFeedItems)
      .where(eq(marketFeedItems.id, Number(id)));
    return row ?? null;
  }

  async function getFeed(
    marketId: string,
    subMarketId: string | undefined,
    query: FeedPageQuery,
  ): Promise<MarketFeedResponse> {
    const area = findMarketArea(marketId);
    const sub = subMarketId === undefined ? undefined : area?.children.find((c) => c.slug === subMarketId);
    if (!area || (subMarketId !== undefined && !sub)) throw new AppError(404, 'not_found', MARKET_NOT_FOUND);

    const key = feedKey(area.slug, sub?.slug);
    const url = urlByKey.get(key);
    const market: MarketFeedResponse['market'] = {
      slug: area.slug,
      name: area.name,
      subMarket: sub ? { slug: sub.slug, name: sub.name } : null,
      children: area.children.map((c) => ({ slug: c.slug, name: c.name })),
    };
    if (url === undefined) {
      return {
        market,
        feed: { configured: false, sample: false, lastRefreshedAt: null, failingSince: null },
        items: [],
        nextCursor: null,
      };
    }

    const limit = query.limit ?? FEED_PAGE_SIZE;
    const conditions: (SQL | undefined)[] = [eq(marketFeedItems.feedKey, key)];
    if (query.cursor) {
      const cursor = decodeCursor(query.cursor);
      conditions.push(
        sql`(${marketFeedItems.sortAt}, ${marketFeedItems.id}) < (${cursor.sortAt.toISOString()}::timestamptz, ${cursor.id})`,
      );
    }
    if (query.q) conditions.push(matchesSearch(marketFeedItems.searchVector, query.q));

    const [rows, [status]] = await Promise.all([
      db
        .select({
          id: marketFeedItems.id,
          title: marketFeedItems.title,
          url: marketFeedItems.url,
          imageUrl: marketFeedItems.imageUrl,
          publishedAt: marketFeedItems.publishedAt,
          contentText: marketFeedItems.contentText,
          authors: marketFeedItems.authors,
          sortAt: marketFeedItems.sortAt,
        })
        .from(marketFeedItems)
        .where(and(...conditions))
        // Spelled as the page index is (DESC NULLS LAST), so the planner walks it.
        .orderBy(sql`${marketFeedItems.sortAt} desc nulls last`, sql`${marketFeedItems.id} desc nulls last`)
        .limit(limit + 1),
      db
        .select({ lastSuccessAt: marketFeeds.lastSuccessAt, failingSince: marketFeeds.failingSince })
        .from(marketFeeds)
        .where(eq(marketFeeds.key, key)),
    ]);

    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      market,
      feed: {
        configured: true,
        sample: isSampleUrl(url),
        lastRefreshedAt: status?.lastSuccessAt?.toISOString() ?? null,
        failingSince: status?.failingSince?.toISOString() ?? null,
      },
      items: page.map((row): FeedItem => ({
        id: String(row.id),
        title: row.title,
        url: row.url,
        image: row.imageUrl,
        date_published: row.publishedAt?.toISOString() ?? null,
        content_text: row.contentText,
        authors: row.authors.map((name) => ({ name })),
      })),
      nextCursor: rows.length > limit && last ? encodeCursor({ sortAt: last.sortAt, id: last.id }) : null,
    };
  }

  return { listMarkets, getFeed, getItem };
}
