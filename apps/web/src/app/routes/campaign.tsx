import { useParams } from 'react-router';

import { Container } from '@/components/ui/container';
import { useCampaign } from '@/features/campaigns/api/get-campaign';
import { CampaignDetails } from '@/features/campaigns/components/campaign-details';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ApiError } from '@/lib/api-client';

import styles from './tool-page.module.css';

/** One campaign (issue 29); the tab says its name once it is loaded. */
export function CampaignRoute() {
  const { campaignId = '' } = useParams();
  const campaign = useCampaign(campaignId);
  const notFound = campaign.error instanceof ApiError && campaign.error.status === 404;
  useDocumentTitle(campaign.data?.name ?? (notFound ? 'Campaign not found' : 'Campaign'));
  return (
    <Container className={styles.page}>
      <CampaignDetails key={campaignId} campaignId={campaignId} />
    </Container>
  );
}
