import {
  adminPaths,
  ownAllowanceResponseSchema,
  type OwnAllowanceResponse,
} from '@gem/contracts/admin-allowances';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET /api/ai/allowance: the signed-in user's monthly AI allowance and what is left of it. */
export function getAiAllowance(signal?: AbortSignal): Promise<OwnAllowanceResponse> {
  return api.get(adminPaths.allowance, { schema: ownAllowanceResponseSchema, signal });
}

export const aiAllowanceQueryOptions = queryOptions({
  queryKey: ['ai-allowance'],
  queryFn: ({ signal }) => getAiAllowance(signal),
  // Every generation spends it, on this page or another; read again on every tool page.
  staleTime: 0,
});

export function useAiAllowance() {
  return useQuery(aiAllowanceQueryOptions);
}

/** A generation ended (or was refused): read the allowance again, so the tool page shows what is left. */
export function refreshAiAllowance(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: aiAllowanceQueryOptions.queryKey });
}
