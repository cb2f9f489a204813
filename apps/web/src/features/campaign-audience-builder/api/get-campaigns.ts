import {
  campaignAudienceBuilderPaths,
  campaignsResponseSchema,
  type CampaignsResponse,
} from '@gem/contracts/campaign-audience-builder';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** The CRM's campaigns whose name or id matches `q`; the most recent when `q` is blank. */
export function getCampaigns(q: string, signal?: AbortSignal): Promise<CampaignsResponse> {
  const query = new URLSearchParams({ q: q.trim() });
  return api.get(`${campaignAudienceBuilderPaths.campaigns}?${query}`, {
    schema: campaignsResponseSchema,
    signal,
  });
}

export const campaignsQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['campaign-audience-builder', 'campaigns', q.trim()],
    queryFn: ({ signal }) => getCampaigns(q, signal),
    staleTime: 60_000,
  });

/** The picker's list; while a new search loads, the last list stays. */
export function useCampaigns(q: string) {
  return useQuery({ ...campaignsQueryOptions(q), placeholderData: keepPreviousData });
}
