import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { CampaignAudienceBuilder } from '@/features/campaign-audience-builder/components/campaign-audience-builder';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function CampaignAudienceBuilderRoute() {
  useDocumentTitle('Campaign audience builder');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Campaign audience builder' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Campaign audience builder"
        description="From a campaign in the CRM and a marketing goal: who to target next, and ready reports to reach them."
      />
      <CampaignAudienceBuilder />
    </Container>
  );
}
