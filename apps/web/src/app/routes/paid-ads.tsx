import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { PaidAdsGenerator } from '@/features/paid-ads/components/paid-ads-generator';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function PaidAdsRoute() {
  useDocumentTitle('Paid ads');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Paid ads' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Paid ads"
        description="Ad copy from your base content, with GEM's reasoning, within the 600-character limit."
      />
      <PaidAdsGenerator />
    </Container>
  );
}
