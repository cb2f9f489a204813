import {
  accessChangeResponseSchema,
  accessListResponseSchema,
  accessRequestDecisionResponseSchema,
  accessRequestsResponseSchema,
  adminPaths,
  type AccessChangeResponse,
  type AccessRequestDecisionResponse,
} from '@gem/contracts/admin-access';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET: everyone GEM knows and how they get in; searched and filtered on the page. */
export const accessListQueryOptions = queryOptions({
  queryKey: ['admin', 'access'],
  queryFn: ({ signal }) => api.get(adminPaths.access, { schema: accessListResponseSchema, signal }),
  // Sign-ins and other administrators change it: read it again whenever the page opens.
  staleTime: 0,
});

/** GET: pending access requests (oldest first) and the latest decided ones. */
export const accessRequestsQueryOptions = queryOptions({
  queryKey: ['admin', 'access-requests'],
  queryFn: ({ signal }) =>
    api.get(adminPaths.accessRequests, { schema: accessRequestsResponseSchema, signal }),
  staleTime: 0,
});

export function useAccessList() {
  return useQuery(accessListQueryOptions);
}

export function useAccessRequests() {
  return useQuery(accessRequestsQueryOptions);
}

/** A change to anyone's access changes both lists (a grant approves a pending request). */
function refresh(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: ['admin', 'access'] });
  void queryClient.invalidateQueries({ queryKey: ['admin', 'access-requests'] });
}

export type GrantInput = { userId?: string; email?: string; reason: string };

export function useGrantAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GrantInput): Promise<AccessChangeResponse> =>
      api.post(adminPaths.accessGrants, input, { schema: accessChangeResponseSchema }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useRevokeAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; reason: string }): Promise<AccessChangeResponse> =>
      api.post(adminPaths.accessRevocations, input, { schema: accessChangeResponseSchema }),
    onSuccess: () => refresh(queryClient),
  });
}

export type DecisionInput = { requestId: string; decision: 'approve' | 'decline'; reason?: string };

export function useDecideAccessRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, ...body }: DecisionInput): Promise<AccessRequestDecisionResponse> =>
      api.post(adminPaths.accessRequestDecision.replace(':requestId', encodeURIComponent(requestId)), body, {
        schema: accessRequestDecisionResponseSchema,
      }),
    onSuccess: () => refresh(queryClient),
  });
}
