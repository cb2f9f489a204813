import {
  campaignAssetDetailsSchema,
  campaignAssetPath,
  type CampaignAssetDetails,
  type SaveAssetRequest,
} from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { useAssetChanged } from './asset-changed';

/**
 * A text edited by hand, as the asset's next version, made on `baseVersion`. When someone saved or
 * generated in between, the server keeps the text as a version of its own and answers 409.
 */
export function saveAsset(
  campaignId: string,
  channel: CampaignChannelId,
  request: SaveAssetRequest,
): Promise<CampaignAssetDetails> {
  return api.request(campaignAssetPath(campaignId, channel), {
    method: 'PUT',
    body: request,
    schema: campaignAssetDetailsSchema,
  });
}

export function useSaveAsset(campaignId: string, channel: CampaignChannelId) {
  const changed = useAssetChanged(campaignId);
  return useMutation({
    mutationFn: (request: SaveAssetRequest) => saveAsset(campaignId, channel, request),
    onSuccess: changed,
  });
}
