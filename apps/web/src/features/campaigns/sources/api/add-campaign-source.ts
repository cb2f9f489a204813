import {
  campaignSourceSchema,
  campaignSourcesPath,
  type AddCampaignSourceRequest,
  type CampaignSource,
} from '@gem/contracts/campaign-sources';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { campaignActivityQueryOptions } from '../../api/get-campaign-activity';
import { campaignSourcesQueryOptions } from './get-campaign-sources';

/** Adds a source (an owner's or an editor's); one added before answers as it is, not doubled. */
export function addCampaignSource(
  campaignId: string,
  request: AddCampaignSourceRequest,
): Promise<CampaignSource> {
  return api.post(campaignSourcesPath(campaignId), request, { schema: campaignSourceSchema });
}

type AddSource = { campaignId: string; request: AddCampaignSourceRequest };

/** The campaign's sources and its activity are asked for again once one is added. */
export function useAddCampaignSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ campaignId, request }: AddSource) => addCampaignSource(campaignId, request),
    onSuccess: (_source, { campaignId }) => {
      void queryClient.invalidateQueries({ queryKey: campaignSourcesQueryOptions(campaignId).queryKey });
      void queryClient.invalidateQueries({ queryKey: campaignActivityQueryOptions(campaignId).queryKey });
    },
  });
}
