import {
  campaignSourcesPath,
  campaignSourcesResponseSchema,
  type CampaignSourcesResponse,
} from '@gem/contracts/campaign-sources';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getCampaignSources(
  campaignId: string,
  signal?: AbortSignal,
): Promise<CampaignSourcesResponse> {
  return api.get(campaignSourcesPath(campaignId), { schema: campaignSourcesResponseSchema, signal });
}

export const campaignSourcesQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaigns', 'campaign', campaignId, 'sources'],
    queryFn: ({ signal }) => getCampaignSources(campaignId, signal),
  });

/** A campaign's sources, oldest first. */
export function useCampaignSources(campaignId: string) {
  return useQuery(campaignSourcesQueryOptions(campaignId));
}
