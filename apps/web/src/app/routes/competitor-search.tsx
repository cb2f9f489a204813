import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { CompetitorSearch } from '@/features/competitor-search/components/competitor-search';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function CompetitorSearchRoute() {
  useDocumentTitle('Competitor search');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Competitor search' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Competitor search"
        description="What the competitors published in Poland lately on a topic, newest first."
      />
      <CompetitorSearch />
    </Container>
  );
}
