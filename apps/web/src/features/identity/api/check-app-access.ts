import type { CheckAppAccessResponse } from '@gem/contracts/identity';
import { identityPaths } from '@gem/contracts/identity-paths';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { checkAppAccessResponse } from '@/lib/light-schemas';

export function checkAppAccess(signal?: AbortSignal): Promise<CheckAppAccessResponse> {
  return api.get(identityPaths.checkAppAccess, { schema: checkAppAccessResponse, signal });
}

export function checkAppAccessQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: ['identity', 'check-app-access', accountId],
    queryFn: ({ signal }) => checkAppAccess(signal),
    // Spec §4/§5: any failure means not permitted, so a failure is shown, not retried.
    retry: false,
    staleTime: 60_000,
  });
}

export function useCheckAppAccess(accountId: string) {
  return useQuery(checkAppAccessQueryOptions(accountId));
}
