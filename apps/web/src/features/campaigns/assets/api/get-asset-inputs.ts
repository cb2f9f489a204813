import {
  assetInputsResponseSchema,
  campaignAssetPath,
  type AssetInputsResponse,
} from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignAssetsKey } from './get-campaign-assets';

/** What 'Generate from brief' would send to the channel's writing tool, from the brief as it is now. */
export function getAssetInputs(
  campaignId: string,
  channel: CampaignChannelId,
  signal?: AbortSignal,
): Promise<AssetInputsResponse> {
  return api.get(`${campaignAssetPath(campaignId, channel)}/inputs`, {
    schema: assetInputsResponseSchema,
    signal,
  });
}

/** Keyed by the brief's version: a new version of the brief gives new inputs. */
export const assetInputsQueryOptions = (
  campaignId: string,
  channel: CampaignChannelId,
  briefVersion: number,
) =>
  queryOptions({
    queryKey: [...campaignAssetsKey(campaignId), channel, 'inputs', briefVersion] as const,
    queryFn: ({ signal }) => getAssetInputs(campaignId, channel, signal),
    staleTime: 0,
  });

/** Asked for when the form opens (`enabled`). */
export function useAssetInputs(
  campaignId: string,
  channel: CampaignChannelId,
  briefVersion: number,
  enabled: boolean,
) {
  return useQuery({ ...assetInputsQueryOptions(campaignId, channel, briefVersion), enabled });
}
