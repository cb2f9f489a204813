import {
  campaignBriefPath,
  campaignBriefVersionsResponseSchema,
  type CampaignBriefVersion,
} from '@gem/contracts/campaigns';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getCampaignBriefVersions(
  campaignId: string,
  signal?: AbortSignal,
): Promise<{ versions: CampaignBriefVersion[] }> {
  return api.get(campaignBriefPath(campaignId), { schema: campaignBriefVersionsResponseSchema, signal });
}

export const campaignBriefVersionsQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaigns', 'campaign', campaignId, 'brief-versions'],
    queryFn: ({ signal }) => getCampaignBriefVersions(campaignId, signal),
  });

export function useCampaignBriefVersions(campaignId: string) {
  return useQuery(campaignBriefVersionsQueryOptions(campaignId));
}
