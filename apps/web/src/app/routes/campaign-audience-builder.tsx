import { CampaignAudienceBuilder } from '@/features/campaign-audience-builder/components/campaign-audience-builder';

import { ToolPage } from './tool-page';

export function CampaignAudienceBuilderRoute() {
  return (
    <ToolPage
      title="Campaign audience builder"
      description="From a campaign in the CRM and a marketing goal: who to target next, and ready reports to reach them."
    >
      <CampaignAudienceBuilder />
    </ToolPage>
  );
}
