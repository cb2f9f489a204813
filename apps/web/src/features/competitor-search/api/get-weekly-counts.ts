import {
  competitorSearchPaths,
  competitorWeeklyCountsResponseSchema,
  type CompetitorWeeklyCountsRequest,
  type CompetitorWeeklyCountsResponse,
} from '@gem/contracts/competitor-search';
import { useQuery } from '@tanstack/react-query';

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

export const weeklyCountsQueryKey = (params: WeeklyCountsParams | null) =>
  ['competitor-search', 'weekly-counts', params] as const;

/** Nothing is asked before there are params (the user asked for the chart). */
export function useWeeklyCounts(params: WeeklyCountsParams | null) {
  return useQuery({
    queryKey: weeklyCountsQueryKey(params),
    queryFn: ({ signal }) => getWeeklyCounts(params!, signal),
    enabled: params !== null,
    // As the search: once, then the page offers 'Try again'.
    retry: (failureCount, error) => failureCount < 1 && shouldRetry(failureCount, error),
  });
}
