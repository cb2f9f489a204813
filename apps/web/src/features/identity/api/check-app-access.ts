import type { CheckAppAccessResponse } from '@gem/contracts/identity';
import { identityPaths } from '@gem/contracts/identity-paths';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';
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

/**
 * Whether the signed-in user is one of GEM's administrators, from the answer of the access check
 * the gate asks (read from the query cache, never asked for here: a page the gate does not guard
 * makes no call for it). The Admin link and the admin pages use it; the server checks every
 * admin call on its own.
 */
export function useIsAdmin(): boolean {
  const { account } = useAuth();
  const access = useQuery({ ...checkAppAccessQueryOptions(account?.homeAccountId ?? ''), enabled: false });
  return account !== null && access.data?.isAdmin === true;
}
