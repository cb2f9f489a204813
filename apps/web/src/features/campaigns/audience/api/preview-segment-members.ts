import {
  campaignSegmentPath,
  memberPreviewSchema,
  type MemberPreview,
} from '@gem/contracts/campaign-audience';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** The dry run: how many of the segment's contacts the CRM campaign would gain, how many it has. */
export function previewSegmentMembers(campaignId: string, segmentId: string): Promise<MemberPreview> {
  return api.post(`${campaignSegmentPath(campaignId, segmentId)}/preview`, undefined, {
    schema: memberPreviewSchema,
  });
}

export function usePreviewSegmentMembers(campaignId: string, segmentId: string) {
  return useMutation({ mutationFn: () => previewSegmentMembers(campaignId, segmentId) });
}
