import {
  adminPaths,
  allowancesResponseSchema,
  type AllowancesResponse,
} from '@gem/contracts/admin-allowances';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { refreshAiAllowance } from '@/lib/ai/get-ai-allowance';
import { api } from '@/lib/api-client';

/** GET: the default allowance, the overrides and everyone's month so far. */
export const allowancesQueryOptions = queryOptions({
  queryKey: ['admin', 'allowances'],
  queryFn: ({ signal }) => api.get(adminPaths.allowances, { schema: allowancesResponseSchema, signal }),
  // Use moves with every generation: read it again whenever the page opens.
  staleTime: 0,
});

export function useAllowances() {
  return useQuery(allowancesQueryOptions);
}

/** What a change sets: the default (no userId) or a person's own; null is no limit / the default. */
export type AllowanceChange = { userId?: string; monthlyTokens: number | null };

/** PUT the default or a person's allowance; the answer is the whole list, shown at once. */
export function useSetAllowance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, monthlyTokens }: AllowanceChange): Promise<AllowancesResponse> =>
      api.request(
        userId === undefined
          ? adminPaths.allowanceDefault
          : adminPaths.allowanceUser.replace(':userId', encodeURIComponent(userId)),
        { method: 'PUT', body: { monthlyTokens }, schema: allowancesResponseSchema },
      ),
    onSuccess: (list) => {
      queryClient.setQueryData(allowancesQueryOptions.queryKey, list);
      // The administrator's own allowance may have changed too.
      refreshAiAllowance(queryClient);
    },
  });
}
