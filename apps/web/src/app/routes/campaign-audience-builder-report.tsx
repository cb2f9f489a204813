import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { AudienceReport } from '@/features/campaign-audience-builder/components/audience-report';

import styles from './tool-page.module.css';

export function CampaignAudienceBuilderReportRoute() {
  return (
    <Container className={styles.page}>
      <Breadcrumbs
        trail={[
          { label: 'Tools', to: '/tools' },
          { label: 'Campaign audience builder', to: '/tools/campaign-audience-builder' },
          { label: 'Report' },
        ]}
      />
      <AudienceReport />
    </Container>
  );
}
