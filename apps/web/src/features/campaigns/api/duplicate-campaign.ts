import { campaignDuplicatePath, campaignSchema, type Campaign } from '@gem/contracts/campaigns';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useCampaignChanged } from './campaign-changed';

/** A copy of a campaign the user may see, as their own private one. */
export function duplicateCampaign(campaignId: string): Promise<Campaign> {
  return api.post(campaignDuplicatePath(campaignId), undefined, { schema: campaignSchema });
}

export function useDuplicateCampaign(campaignId: string) {
  const changed = useCampaignChanged();
  return useMutation({ mutationFn: () => duplicateCampaign(campaignId), onSuccess: changed });
}
