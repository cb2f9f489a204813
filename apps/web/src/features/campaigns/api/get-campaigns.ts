import {
  campaignsPaths,
  campaignsResponseSchema,
  type CampaignsQuery,
  type CampaignsResponse,
} from '@gem/contracts/campaigns';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** Every list of campaigns, whatever its filters: what a change to a campaign refreshes. */
export const campaignListsKey = ['campaigns', 'list'] as const;

export function getCampaigns(query: CampaignsQuery = {}, signal?: AbortSignal): Promise<CampaignsResponse> {
  const params = new URLSearchParams();
  if (query.q?.trim()) params.set('q', query.q.trim());
  if (query.status) params.set('status', query.status);
  if (query.owner) params.set('owner', query.owner);
  if (query.campaignType) params.set('campaignType', query.campaignType);
  const search = params.toString() === '' ? '' : `?${params.toString()}`;
  return api.get(`${campaignsPaths.campaigns}${search}`, { schema: campaignsResponseSchema, signal });
}

export const campaignsQueryOptions = (query: CampaignsQuery = {}) =>
  queryOptions({
    queryKey: [
      ...campaignListsKey,
      {
        q: query.q?.trim() ?? '',
        status: query.status ?? null,
        owner: query.owner ?? null,
        campaignType: query.campaignType ?? null,
      },
    ],
    queryFn: ({ signal }) => getCampaigns(query, signal),
    // While a new search runs, the last one's cards stay rather than a loading text.
    placeholderData: keepPreviousData,
    // Asked again each time the list is shown: a campaign made from a brief, or shared by someone
    // else, is there at once (what is cached stays on screen meanwhile).
    staleTime: 0,
  });

export function useCampaigns(query: CampaignsQuery = {}) {
  return useQuery(campaignsQueryOptions(query));
}
