import { campaignPath, campaignSchema, type Campaign } from '@gem/contracts/campaigns';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getCampaign(campaignId: string, signal?: AbortSignal): Promise<Campaign> {
  return api.get(campaignPath(campaignId), { schema: campaignSchema, signal });
}

export const campaignQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaigns', 'campaign', campaignId],
    queryFn: ({ signal }) => getCampaign(campaignId, signal),
  });

export function useCampaign(campaignId: string) {
  return useQuery(campaignQueryOptions(campaignId));
}
