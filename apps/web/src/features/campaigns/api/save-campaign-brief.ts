import {
  campaignBriefPath,
  campaignSchema,
  type Campaign,
  type SaveCampaignBriefRequest,
} from '@gem/contracts/campaigns';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, ApiError } from '@/lib/api-client';

import { useCampaignChanged } from './campaign-changed';
import { campaignBriefVersionsQueryOptions } from './get-campaign-brief-versions';
import { campaignQueryOptions } from './get-campaign';

/**
 * The brief as changed, as its next version. Made on an older version than the newest (someone
 * saved in between), it is a 409 and nothing is overwritten.
 */
export function saveCampaignBrief(campaignId: string, request: SaveCampaignBriefRequest): Promise<Campaign> {
  return api.request(campaignBriefPath(campaignId), { method: 'PUT', body: request, schema: campaignSchema });
}

export function useSaveCampaignBrief(campaignId: string) {
  const changed = useCampaignChanged();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveCampaignBriefRequest) => saveCampaignBrief(campaignId, request),
    onSuccess: changed,
    onError: (error) => {
      if (!(error instanceof ApiError && error.status === 409)) return;
      // Someone saved a newer version: it is asked for, to compare with what the user typed.
      void queryClient.invalidateQueries({
        queryKey: campaignQueryOptions(campaignId).queryKey,
        exact: true,
      });
      void queryClient.invalidateQueries({
        queryKey: campaignBriefVersionsQueryOptions(campaignId).queryKey,
      });
    },
  });
}
