import {
  adminPaths,
  auditResponseSchema,
  auditRetentionResponseSchema,
  type AuditResponse,
} from '@gem/contracts/admin-audit';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** What the audit page searches for: every field optional; empty means any. */
export type AuditFilters = { q: string; action: string; from: string; to: string };

export function auditQueryOptions(filters: AuditFilters) {
  const q = filters.q.trim();
  return infiniteQueryOptions({
    queryKey: ['admin', 'audit', q, filters.action, filters.from, filters.to],
    queryFn: ({ pageParam, signal }): Promise<AuditResponse> => {
      const search = new URLSearchParams();
      if (q) search.set('q', q);
      if (filters.action) search.set('action', filters.action);
      if (filters.from) search.set('from', filters.from);
      if (filters.to) search.set('to', filters.to);
      if (pageParam) search.set('before', pageParam);
      return api.get(`${adminPaths.audit}?${search}`, { schema: auditResponseSchema, signal });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    // Sign-ins and other administrators add entries: read afresh whenever the page opens.
    staleTime: 0,
  });
}

/** The log, newest first, a page at a time ('Load more'). */
export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery(auditQueryOptions(filters));
}

/** PUT: how many days entries are kept; the change is an entry, so the log is read again. */
export function useSetAuditRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (days: number) =>
      api.request(adminPaths.auditRetention, {
        method: 'PUT',
        body: { days },
        schema: auditRetentionResponseSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] }),
  });
}
