import {
  campaignAudienceResponseSchema,
  campaignSegmentPath,
  type CampaignAudienceResponse,
} from '@gem/contracts/campaign-audience';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useAudienceChanged } from './get-campaign-audience';

/** Takes a saved segment off the campaign (its owner and editors). */
export function removeCampaignSegment(
  campaignId: string,
  segmentId: string,
): Promise<CampaignAudienceResponse> {
  return api.request(campaignSegmentPath(campaignId, segmentId), {
    method: 'DELETE',
    schema: campaignAudienceResponseSchema,
  });
}

export function useRemoveCampaignSegment(campaignId: string) {
  const changed = useAudienceChanged(campaignId);
  return useMutation({
    mutationFn: (segmentId: string) => removeCampaignSegment(campaignId, segmentId),
    onSuccess: (audience) => changed(audience),
  });
}
