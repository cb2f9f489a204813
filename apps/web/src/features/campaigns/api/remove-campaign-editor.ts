import { campaignEditorPath, campaignSchema, type Campaign } from '@gem/contracts/campaigns';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useCampaignChanged } from './campaign-changed';

/** Takes an editor off the campaign (the owner only). */
export function removeCampaignEditor(campaignId: string, userId: string): Promise<Campaign> {
  return api.request(campaignEditorPath(campaignId, userId), { method: 'DELETE', schema: campaignSchema });
}

export function useRemoveCampaignEditor(campaignId: string) {
  const changed = useCampaignChanged();
  return useMutation({
    mutationFn: (userId: string) => removeCampaignEditor(campaignId, userId),
    onSuccess: changed,
  });
}
