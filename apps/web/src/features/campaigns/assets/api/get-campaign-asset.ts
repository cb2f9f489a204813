import {
  campaignAssetDetailsSchema,
  campaignAssetPath,
  type CampaignAssetDetails,
} from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignAssetsKey } from './get-campaign-assets';

export function getCampaignAsset(
  campaignId: string,
  channel: CampaignChannelId,
  signal?: AbortSignal,
): Promise<CampaignAssetDetails> {
  return api.get(campaignAssetPath(campaignId, channel), { schema: campaignAssetDetailsSchema, signal });
}

export const campaignAssetQueryOptions = (campaignId: string, channel: CampaignChannelId) =>
  queryOptions({
    queryKey: [...campaignAssetsKey(campaignId), channel] as const,
    queryFn: ({ signal }) => getCampaignAsset(campaignId, channel, signal),
  });

/** One asset with all its versions, newest first; asked for only once it has a text (`enabled`). */
export function useCampaignAsset(campaignId: string, channel: CampaignChannelId, enabled: boolean) {
  return useQuery({ ...campaignAssetQueryOptions(campaignId, channel), enabled });
}
