import {
  marketFeedPath,
  marketFeedResponseSchema,
  type MarketFeedResponse,
} from '@gem/contracts/market-research';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export type MarketFeedParams = {
  marketId: string;
  subMarketId?: string | undefined;
  /** Full-text search within the area; empty means every item. */
  q?: string;
};

/** Items per page on screen: enough to fill a tall window, small enough to answer fast. */
export const FEED_SCREEN_PAGE = 30;

export function getMarketFeed(
  { marketId, subMarketId, q }: MarketFeedParams,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<MarketFeedResponse> {
  const search = new URLSearchParams({ limit: String(FEED_SCREEN_PAGE) });
  if (q) search.set('q', q);
  if (cursor) search.set('cursor', cursor);
  return api.get(`${marketFeedPath(marketId, subMarketId)}?${search}`, {
    schema: marketFeedResponseSchema,
    signal,
  });
}

export function marketFeedQueryOptions(params: MarketFeedParams) {
  const q = params.q?.trim() ?? '';
  return infiniteQueryOptions({
    queryKey: ['market-research', 'feed', params.marketId, params.subMarketId ?? null, q],
    queryFn: ({ pageParam, signal }) => getMarketFeed({ ...params, q }, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Spec §4: the feed query is not run for a market the catalogue does not know. */
export function useMarketFeed(params: MarketFeedParams, { enabled }: { enabled: boolean }) {
  return useInfiniteQuery({ ...marketFeedQueryOptions(params), enabled });
}
