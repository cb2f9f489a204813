import {
  campaignPath,
  campaignSchema,
  type Campaign,
  type UpdateCampaignRequest,
} from '@gem/contracts/campaigns';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useCampaignChanged } from './campaign-changed';

/** Renames it, moves its status, shares it, or sets its CRM campaign or landing page. */
export function updateCampaign(campaignId: string, change: UpdateCampaignRequest): Promise<Campaign> {
  return api.request(campaignPath(campaignId), { method: 'PATCH', body: change, schema: campaignSchema });
}

/** One change at a time; each caller has its own pending and error state (a field's own message). */
export function useUpdateCampaign(campaignId: string) {
  const changed = useCampaignChanged();
  return useMutation({
    mutationFn: (change: UpdateCampaignRequest) => updateCampaign(campaignId, change),
    onSuccess: changed,
  });
}
