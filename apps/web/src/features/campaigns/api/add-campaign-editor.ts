import {
  campaignEditorsPath,
  campaignSchema,
  type AddCampaignEditorRequest,
  type Campaign,
} from '@gem/contracts/campaigns';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useCampaignChanged } from './campaign-changed';

/** Adds an editor by the e-mail they signed in to GEM with (the owner only). */
export function addCampaignEditor(campaignId: string, email: string): Promise<Campaign> {
  const body: AddCampaignEditorRequest = { email };
  return api.post(campaignEditorsPath(campaignId), body, { schema: campaignSchema });
}

export function useAddCampaignEditor(campaignId: string) {
  const changed = useCampaignChanged();
  return useMutation({
    mutationFn: (email: string) => addCampaignEditor(campaignId, email),
    onSuccess: changed,
  });
}
