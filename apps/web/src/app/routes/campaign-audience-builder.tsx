import { useSearchParams } from 'react-router';

import { CampaignAudienceBuilder } from '@/features/campaign-audience-builder/components/campaign-audience-builder';
import { AudienceBuilderForCampaign, SaveToCampaign } from '@/features/campaigns/audience/save-to-campaign';

import { ToolPage } from './tool-page';

/** The audience builder; opened from a campaign (`?forCampaign=`), its reports can be saved to it. */
export function CampaignAudienceBuilderRoute() {
  const [params] = useSearchParams();
  const forCampaign = params.get('forCampaign');
  return (
    <ToolPage
      title="Campaign audience builder"
      description="From a campaign in the CRM and a marketing goal: who to target next, and ready reports to reach them."
    >
      <CampaignAudienceBuilder
        notice={forCampaign ? <AudienceBuilderForCampaign campaignId={forCampaign} /> : undefined}
        reportAction={
          forCampaign
            ? (save) => <SaveToCampaign key={forCampaign} campaignId={forCampaign} save={save} />
            : undefined
        }
      />
    </ToolPage>
  );
}
