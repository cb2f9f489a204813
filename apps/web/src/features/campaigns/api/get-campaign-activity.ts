import {
  campaignActivityPath,
  campaignActivityResponseSchema,
  type CampaignActivity,
} from '@gem/contracts/campaigns';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getCampaignActivity(
  campaignId: string,
  signal?: AbortSignal,
): Promise<{ activity: CampaignActivity[] }> {
  return api.get(campaignActivityPath(campaignId), { schema: campaignActivityResponseSchema, signal });
}

export const campaignActivityQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaigns', 'campaign', campaignId, 'activity'],
    queryFn: ({ signal }) => getCampaignActivity(campaignId, signal),
  });

/** Asked for only once the activity is opened (`enabled`). */
export function useCampaignActivity(campaignId: string, enabled = true) {
  return useQuery({ ...campaignActivityQueryOptions(campaignId), enabled });
}
