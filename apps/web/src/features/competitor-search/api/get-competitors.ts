import {
  competitorSearchPaths,
  competitorsResponseSchema,
  type CompetitorsResponse,
} from '@gem/contracts/competitor-search';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** The competitors, with how fresh GEM's index of each one's site is. */
export function getCompetitors(signal?: AbortSignal): Promise<CompetitorsResponse> {
  return api.get(competitorSearchPaths.competitors, { schema: competitorsResponseSchema, signal });
}

export const competitorsQueryOptions = queryOptions({
  queryKey: ['competitor-search', 'competitors'],
  queryFn: ({ signal }) => getCompetitors(signal),
});

export function useCompetitors() {
  return useQuery(competitorsQueryOptions);
}
