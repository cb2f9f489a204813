import {
  briefCreatorPaths,
  finishedBriefsResponseSchema,
  type FinishedBriefsResponse,
} from '@gem/contracts/brief-creator';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getFinishedBriefs(signal?: AbortSignal): Promise<FinishedBriefsResponse> {
  return api.get(briefCreatorPaths.finishedBriefs, { schema: finishedBriefsResponseSchema, signal });
}

export const finishedBriefsQueryOptions = queryOptions({
  queryKey: ['brief-creator', 'finished-briefs'],
  queryFn: ({ signal }) => getFinishedBriefs(signal),
});

export function useFinishedBriefs() {
  return useQuery(finishedBriefsQueryOptions);
}
