import {
  COMPETITOR_PAGE_SIZE,
  COMPETITOR_START_MAX,
  competitorSearchPaths,
  competitorSearchResponseSchema,
  type CompetitorSearchRequest,
  type CompetitorSearchResponse,
  type SearchSort,
} from '@gem/contracts/competitor-search';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { shouldRetry } from '@/lib/query-client';

export type CompetitorSearchParams = {
  query: string;
  /** A competitor's `siteSearch`, or null for all of them. */
  siteSearch: string | null;
  /** `d90`, `w12`. */
  dateRestrict: string;
  sort: SearchSort;
};

/** Spec §7: one page of results, from the 1-based position `start`. */
export function searchCompetitorContent(
  { query, siteSearch, dateRestrict, sort }: CompetitorSearchParams,
  start: number,
  signal?: AbortSignal,
): Promise<CompetitorSearchResponse> {
  const body: CompetitorSearchRequest = {
    query,
    num: COMPETITOR_PAGE_SIZE,
    start,
    dateRestrict,
    sort,
    siteSearch,
  };
  return api.post(competitorSearchPaths.search, body, { schema: competitorSearchResponseSchema, signal });
}

export function competitorSearchQueryOptions(params: CompetitorSearchParams) {
  return infiniteQueryOptions({
    queryKey: ['competitor-search', 'results', params],
    queryFn: ({ pageParam, signal }) => searchCompetitorContent(params, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => {
      const next = last.queries.nextPage?.[0]?.startIndex;
      return next !== undefined && next <= COMPETITOR_START_MAX ? next : undefined;
    },
    // Once, not three times: the page says what failed and offers 'Try again' straight away,
    // instead of keeping the user waiting through the back-off.
    retry: (failureCount, error) => failureCount < 1 && shouldRetry(failureCount, error),
  });
}

/** Results page by page; nothing is asked before there is a query. */
export function useCompetitorSearch(params: CompetitorSearchParams | null) {
  return useInfiniteQuery({
    ...competitorSearchQueryOptions(
      params ?? { query: '', siteSearch: null, dateRestrict: '', sort: 'date' },
    ),
    enabled: params !== null,
  });
}
