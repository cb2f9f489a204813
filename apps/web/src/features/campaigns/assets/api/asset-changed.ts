import type {
  CampaignAsset,
  CampaignAssetDetails,
  CampaignAssetsResponse,
} from '@gem/contracts/campaign-assets';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

import { campaignActivityQueryOptions } from '../../api/get-campaign-activity';
import { campaignAssetQueryOptions } from './get-campaign-asset';
import { campaignAssetsQueryOptions } from './get-campaign-assets';

/** The list's entry of an asset, from its details. */
function entryOf({ versions: _versions, ...asset }: CampaignAssetDetails): CampaignAsset {
  return asset;
}

/**
 * What a change answers with is the asset as it now stands: it replaces the cached one and its
 * entry in the list, and the campaign's activity (which records every change) is asked for again.
 */
export function useAssetChanged(campaignId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    (details: CampaignAssetDetails) => {
      queryClient.setQueryData(campaignAssetQueryOptions(campaignId, details.channel).queryKey, details);
      queryClient.setQueryData(
        campaignAssetsQueryOptions(campaignId).queryKey,
        (list: CampaignAssetsResponse | undefined) =>
          list && {
            assets: list.assets.some((asset) => asset.channel === details.channel)
              ? list.assets.map((asset) => (asset.channel === details.channel ? entryOf(details) : asset))
              : [...list.assets, entryOf(details)],
          },
      );
      void queryClient.invalidateQueries({ queryKey: campaignActivityQueryOptions(campaignId).queryKey });
    },
    [campaignId, queryClient],
  );
}
