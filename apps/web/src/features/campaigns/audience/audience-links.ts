import { TOPIC_MAX } from '@gem/contracts/campaign-audience-builder';

/** The audience builder's page. */
export const audienceBuilderLink = '/tools/campaign-audience-builder';

/**
 * The audience builder opened for a campaign: its CRM campaign id and the brief's objective as
 * the goal filled in, and the campaign its reports can be saved to.
 */
export function audienceBuilderFor(campaign: {
  id: string;
  crmCampaignId: string | null;
  brief: { primaryObjective: string };
}): string {
  const params = new URLSearchParams();
  if (campaign.crmCampaignId) params.set('campaignId', campaign.crmCampaignId);
  const goal = campaign.brief.primaryObjective.trim().slice(0, TOPIC_MAX);
  if (goal) params.set('goal', goal);
  params.set('forCampaign', campaign.id);
  return `${audienceBuilderLink}?${params}`;
}
