import { adminPaths, integrationsResponseSchema } from '@gem/contracts/admin-integrations';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET: the health of each integration, as the server sees it now. */
export const integrationsQueryOptions = queryOptions({
  queryKey: ['admin', 'integrations'],
  queryFn: ({ signal }) => api.get(adminPaths.integrations, { schema: integrationsResponseSchema, signal }),
  staleTime: 0,
  // The page is a dashboard: it keeps itself current while open (the CRM check is reused 30 s).
  refetchInterval: 60_000,
});

export function useIntegrations() {
  return useQuery(integrationsQueryOptions);
}
