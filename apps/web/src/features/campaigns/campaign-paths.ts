// The web app's addresses of campaigns (contracts' web-routes lists the patterns).

/** A campaign's page. */
export const campaignLink = (campaignId: string) => `/campaigns/${encodeURIComponent(campaignId)}`;
export const campaignsLink = '/campaigns';
/** Where campaigns come from: the brief creator's finished briefs. */
export const finishedBriefsLink = '/tools/brief-creator?tab=finished';
