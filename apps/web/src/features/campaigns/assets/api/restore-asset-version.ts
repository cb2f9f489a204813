import {
  campaignAssetDetailsSchema,
  campaignAssetPath,
  type CampaignAssetDetails,
} from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useAssetChanged } from './asset-changed';

/** An old version's text as the asset's newest version (a version of its own). */
export function restoreAssetVersion(
  campaignId: string,
  channel: CampaignChannelId,
  version: number,
): Promise<CampaignAssetDetails> {
  return api.request(`${campaignAssetPath(campaignId, channel)}/restore`, {
    method: 'POST',
    body: { version },
    schema: campaignAssetDetailsSchema,
  });
}

export function useRestoreAssetVersion(campaignId: string, channel: CampaignChannelId) {
  const changed = useAssetChanged(campaignId);
  return useMutation({
    mutationFn: (version: number) => restoreAssetVersion(campaignId, channel, version),
    onSuccess: changed,
  });
}
