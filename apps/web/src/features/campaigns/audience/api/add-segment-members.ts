import { campaignSegmentPath, memberRunSchema, type MemberRun } from '@gem/contracts/campaign-audience';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useAudienceChanged } from './get-campaign-audience';

/** Adds the segment's contacts to the CRM campaign: nobody twice; the run is recorded. */
export function addSegmentMembers(campaignId: string, segmentId: string): Promise<MemberRun> {
  return api.post(`${campaignSegmentPath(campaignId, segmentId)}/members`, undefined, {
    schema: memberRunSchema,
  });
}

export function useAddSegmentMembers(campaignId: string, segmentId: string) {
  const changed = useAudienceChanged(campaignId);
  return useMutation({
    mutationFn: () => addSegmentMembers(campaignId, segmentId),
    // The run joins the history: the audience is asked for again.
    onSettled: () => changed(),
  });
}
