import {
  campaignAssetDetailsSchema,
  campaignAssetPath,
  type CampaignAssetDetails,
  type UpdateAssetRequest,
} from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useAssetChanged } from './asset-changed';

/** Moves the asset through Draft → In review → Approved (or back), or sets its links' UTM tags. */
export function updateAsset(
  campaignId: string,
  channel: CampaignChannelId,
  change: UpdateAssetRequest,
): Promise<CampaignAssetDetails> {
  return api.request(campaignAssetPath(campaignId, channel), {
    method: 'PATCH',
    body: change,
    schema: campaignAssetDetailsSchema,
  });
}

export function useUpdateAsset(campaignId: string, channel: CampaignChannelId) {
  const changed = useAssetChanged(campaignId);
  return useMutation({
    mutationFn: (change: UpdateAssetRequest) => updateAsset(campaignId, channel, change),
    onSuccess: changed,
  });
}
