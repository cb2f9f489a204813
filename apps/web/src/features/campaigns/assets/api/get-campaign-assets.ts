import {
  campaignAssetsPath,
  campaignAssetsResponseSchema,
  type CampaignAssetsResponse,
} from '@gem/contracts/campaign-assets';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getCampaignAssets(campaignId: string, signal?: AbortSignal): Promise<CampaignAssetsResponse> {
  return api.get(campaignAssetsPath(campaignId), { schema: campaignAssetsResponseSchema, signal });
}

/** The key every asset query of a campaign starts with (the list, each asset, its inputs). */
export const campaignAssetsKey = (campaignId: string) =>
  ['campaigns', 'campaign', campaignId, 'assets'] as const;

export const campaignAssetsQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: campaignAssetsKey(campaignId),
    queryFn: ({ signal }) => getCampaignAssets(campaignId, signal),
  });

/** How often the list is asked again while someone (any tab, any instance) is generating an asset. */
export const GENERATING_POLL_MS = 3_000;

/**
 * The campaign's assets with their current texts. While one is being generated (its lease is in
 * the database), the list is asked for again every few seconds, so the page shows who is
 * generating it and the new text once it is saved.
 */
export function useCampaignAssets(campaignId: string) {
  return useQuery({
    ...campaignAssetsQueryOptions(campaignId),
    refetchInterval: (query) =>
      query.state.data?.assets.some((asset) => asset.generating !== null) ? GENERATING_POLL_MS : false,
  });
}
