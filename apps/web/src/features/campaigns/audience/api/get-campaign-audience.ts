import {
  campaignAudiencePath,
  campaignAudienceResponseSchema,
  type CampaignAudienceResponse,
} from '@gem/contracts/campaign-audience';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignActivityQueryOptions } from '../../api/get-campaign-activity';

export function getCampaignAudience(
  campaignId: string,
  signal?: AbortSignal,
): Promise<CampaignAudienceResponse> {
  return api.get(campaignAudiencePath(campaignId), { schema: campaignAudienceResponseSchema, signal });
}

export const campaignAudienceQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaigns', 'campaign', campaignId, 'audience'],
    queryFn: ({ signal }) => getCampaignAudience(campaignId, signal),
  });

export function useCampaignAudience(campaignId: string) {
  return useQuery(campaignAudienceQueryOptions(campaignId));
}

/**
 * A change to the audience: an answer holding the whole audience replaces the cached one, else
 * it is asked for again; the activity it wrote a line of too.
 */
export function useAudienceChanged(campaignId: string) {
  const queryClient = useQueryClient();
  return (audience?: CampaignAudienceResponse) => {
    if (audience) queryClient.setQueryData(campaignAudienceQueryOptions(campaignId).queryKey, audience);
    else void queryClient.invalidateQueries({ queryKey: campaignAudienceQueryOptions(campaignId).queryKey });
    void queryClient.invalidateQueries({ queryKey: campaignActivityQueryOptions(campaignId).queryKey });
  };
}
