import {
  campaignSchema,
  campaignsPaths,
  type Campaign,
  type CreateCampaignRequest,
} from '@gem/contracts/campaigns';

import { api } from '@/lib/api-client';

/**
 * 'Create campaign' (issue 29): a campaign from a finished brief of the user's, or the one they
 * made from it before (the server answers 201 for a new one, 200 for that one).
 */
export function createCampaign(finishedBriefId: string): Promise<Campaign> {
  const body: CreateCampaignRequest = { finishedBriefId };
  return api.post(campaignsPaths.campaigns, body, { schema: campaignSchema });
}
