import { adminPaths } from '@gem/contracts/admin-paths';
import type { OwnAccessRequestResponse } from '@gem/contracts/admin-access';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, type ResponseSchema } from '@/lib/api-client';

/**
 * The requester's side of access requests (issue 30), on the Access Denied page. The answer is
 * checked without zod (the gate is in every page's first chunk, lib/light-schemas.ts says why),
 * against ownAccessRequestResponseSchema's shape.
 */
const statuses = new Set(['pending', 'approved', 'declined']);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const nullableString = (v: unknown) => v === null || typeof v === 'string';

export const ownAccessRequestResponse: ResponseSchema<OwnAccessRequestResponse> = {
  parse(data) {
    const ok =
      isRecord(data) &&
      typeof data.hasAccess === 'boolean' &&
      (data.request === null ||
        (isRecord(data.request) &&
          typeof data.request.id === 'string' &&
          statuses.has(data.request.status as string) &&
          typeof data.request.createdAt === 'string' &&
          nullableString(data.request.note) &&
          nullableString(data.request.decidedAt) &&
          nullableString(data.request.decisionReason)));
    if (!ok) throw new TypeError("The server's answer is not a valid access request.");
    return data as OwnAccessRequestResponse;
  },
};

const ownRequestKey = (accountId: string) => ['identity', 'access-request', accountId] as const;

/** GET: the signed-in user's latest access request (null when they never asked). */
export function useOwnAccessRequest(accountId: string) {
  return useQuery({
    queryKey: ownRequestKey(accountId),
    queryFn: ({ signal }) => api.get(adminPaths.accessRequest, { schema: ownAccessRequestResponse, signal }),
    staleTime: 0,
  });
}

/** POST { note? }: asks for access; someone let in meanwhile goes in (the access check again). */
export function useRequestAccess(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) =>
      api.post(adminPaths.accessRequest, note.trim() ? { note: note.trim() } : {}, {
        schema: ownAccessRequestResponse,
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(ownRequestKey(accountId), answer);
      if (answer.hasAccess)
        void queryClient.invalidateQueries({ queryKey: ['identity', 'check-app-access'] });
    },
  });
}
