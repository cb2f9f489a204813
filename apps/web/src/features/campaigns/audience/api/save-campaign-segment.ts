import {
  campaignAudiencePath,
  campaignAudienceResponseSchema,
  type CampaignAudienceResponse,
  type SaveSegmentRequest,
} from '@gem/contracts/campaign-audience';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useAudienceChanged } from './get-campaign-audience';

/** Saves one of the audience builder's reports to the campaign as a segment. */
export function saveCampaignSegment(
  campaignId: string,
  request: SaveSegmentRequest,
): Promise<CampaignAudienceResponse> {
  return api.post(campaignAudiencePath(campaignId), request, { schema: campaignAudienceResponseSchema });
}

export function useSaveCampaignSegment(campaignId: string) {
  const changed = useAudienceChanged(campaignId);
  return useMutation({
    mutationFn: (request: SaveSegmentRequest) => saveCampaignSegment(campaignId, request),
    onSuccess: (audience) => changed(audience),
  });
}
