import {
  competitorSearchPaths,
  competitorWeeklyCountsResponseSchema,
  type CompetitorWeeklyCountsRequest,
  type CompetitorWeeklyCountsResponse,
} from '@gem/contracts/competitor-search';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { shouldRetry } from '@/lib/query-client';

import type { CompetitorSearchParams } from './search-competitor-content';

export type WeeklyCountsParams = Pick<CompetitorSearchParams, 'query' | 'siteSearch' | 'dateRestrict'>;

/** Every match of a search counted per competitor and week (GEM's own index). */
export function getWeeklyCounts(
  { query, siteSearch, dateRestrict }: WeeklyCountsParams,
  signal?: AbortSignal,
): Promise<CompetitorWeeklyCountsResponse> {
  const body: CompetitorWeeklyCountsRequest = { query, siteSearch, dateRestrict };
  return api.post(competitorSearchPaths.weeklyCounts, body, {
    schema: competitorWeeklyCountsResponseSchema,
    signal,
  });
}

export function weeklyCountsQueryOptions(params: WeeklyCountsParams) {
  return queryOptions({
    queryKey: ['competitor-search', 'weekly-counts', params],
    queryFn: ({ signal }) => getWeeklyCounts(params, signal),
    // As the search: once, then the page offers 'Try again'.
    retry: (failureCount, error) => failureCount < 1 && shouldRetry(failureCount, error),
  });
}

/** Nothing is asked before there are params (the user asked for the chart). */
export function useWeeklyCounts(params: WeeklyCountsParams | null) {
  return useQuery({
    ...weeklyCountsQueryOptions(params ?? { query: '', siteSearch: null, dateRestrict: '' }),
    enabled: params !== null,
  });
}
