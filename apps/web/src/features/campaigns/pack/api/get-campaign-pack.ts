import { campaignPackPath, campaignPackSchema, type CampaignPack } from '@gem/contracts/campaign-pack';
import { queryOptions } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getCampaignPack(campaignId: string, signal?: AbortSignal): Promise<CampaignPack> {
  return api.get(campaignPackPath(campaignId), { schema: campaignPackSchema, signal });
}

/**
 * The pack as the server answers it now: asked for on every download (never from the cache), so
 * an asset approved a moment ago is in it.
 */
export const campaignPackQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaigns', 'campaign', campaignId, 'pack'],
    queryFn: ({ signal }) => getCampaignPack(campaignId, signal),
    staleTime: 0,
    gcTime: 0,
  });
