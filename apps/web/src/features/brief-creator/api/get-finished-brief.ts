import { finishedBriefPath, finishedBriefSchema, type FinishedBrief } from '@gem/contracts/brief-creator';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getFinishedBrief(briefId: string, signal?: AbortSignal): Promise<FinishedBrief> {
  return api.get(finishedBriefPath(briefId), { schema: finishedBriefSchema, signal });
}

export const finishedBriefQueryOptions = (briefId: string) =>
  queryOptions({
    queryKey: ['brief-creator', 'finished-brief', briefId],
    queryFn: ({ signal }) => getFinishedBrief(briefId, signal),
    // A finished brief does not change.
    staleTime: Infinity,
  });

export function useFinishedBrief(briefId: string) {
  return useQuery(finishedBriefQueryOptions(briefId));
}
