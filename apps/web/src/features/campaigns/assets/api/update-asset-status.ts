import {
  campaignAssetDetailsSchema,
  campaignAssetPath,
  type AssetStatus,
  type CampaignAssetDetails,
} from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useAssetChanged } from './asset-changed';

/** Moves the asset through Draft → In review → Approved (or back). */
export function updateAssetStatus(
  campaignId: string,
  channel: CampaignChannelId,
  status: AssetStatus,
): Promise<CampaignAssetDetails> {
  return api.request(campaignAssetPath(campaignId, channel), {
    method: 'PATCH',
    body: { status },
    schema: campaignAssetDetailsSchema,
  });
}

export function useUpdateAssetStatus(campaignId: string, channel: CampaignChannelId) {
  const changed = useAssetChanged(campaignId);
  return useMutation({
    mutationFn: (status: AssetStatus) => updateAssetStatus(campaignId, channel, status),
    onSuccess: changed,
  });
}
