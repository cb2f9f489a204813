import type { Campaign } from '@gem/contracts/campaigns';
import { useQueryClient } from '@tanstack/react-query';

import { campaignActivityQueryOptions } from './get-campaign-activity';
import { campaignBriefVersionsQueryOptions } from './get-campaign-brief-versions';
import { campaignQueryOptions } from './get-campaign';
import { campaignListsKey } from './get-campaigns';

/**
 * What a change answers with is the campaign as it now stands: it replaces the cached one, and
 * the lists, the brief's versions and the activity it changed are asked for again.
 */
export function useCampaignChanged() {
  const queryClient = useQueryClient();
  return (campaign: Campaign) => {
    queryClient.setQueryData(campaignQueryOptions(campaign.id).queryKey, campaign);
    void queryClient.invalidateQueries({ queryKey: campaignListsKey });
    void queryClient.invalidateQueries({ queryKey: campaignBriefVersionsQueryOptions(campaign.id).queryKey });
    void queryClient.invalidateQueries({ queryKey: campaignActivityQueryOptions(campaign.id).queryKey });
  };
}
