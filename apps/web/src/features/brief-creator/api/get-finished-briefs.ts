import {
  briefCreatorPaths,
  finishedBriefsResponseSchema,
  type FinishedBriefsQuery,
  type FinishedBriefsResponse,
} from '@gem/contracts/brief-creator';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** Every list of finished briefs, whatever its search: what a delete, undo or accept refreshes. */
export const finishedBriefListsKey = ['brief-creator', 'finished-briefs', 'list'] as const;

export function getFinishedBriefs(
  query: FinishedBriefsQuery = {},
  signal?: AbortSignal,
): Promise<FinishedBriefsResponse> {
  const params = new URLSearchParams();
  if (query.q?.trim()) params.set('q', query.q.trim());
  if (query.campaignType) params.set('campaignType', query.campaignType);
  const search = params.toString() === '' ? '' : `?${params.toString()}`;
  return api.get(`${briefCreatorPaths.finishedBriefs}${search}`, {
    schema: finishedBriefsResponseSchema,
    signal,
  });
}

export const finishedBriefsQueryOptions = (query: FinishedBriefsQuery = {}) =>
  queryOptions({
    queryKey: [
      ...finishedBriefListsKey,
      { q: query.q?.trim() ?? '', campaignType: query.campaignType ?? null },
    ],
    queryFn: ({ signal }) => getFinishedBriefs(query, signal),
    // While a new search runs, the last one's cards stay rather than a loading text.
    placeholderData: keepPreviousData,
  });

export function useFinishedBriefs(query: FinishedBriefsQuery = {}) {
  return useQuery(finishedBriefsQueryOptions(query));
}
