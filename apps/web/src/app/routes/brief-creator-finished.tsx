import { useParams } from 'react-router';

import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { FinishedBriefDetails } from '@/features/brief-creator/components/finished-brief-details';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function BriefCreatorFinishedRoute() {
  useDocumentTitle('Finished brief');
  const { briefId = '' } = useParams();
  return (
    <Container className={styles.page}>
      <Breadcrumbs
        trail={[
          { label: 'Tools', to: '/tools' },
          { label: 'Brief creator', to: '/tools/brief-creator' },
          { label: 'Finished brief' },
        ]}
      />
      <FinishedBriefDetails key={briefId} briefId={briefId} />
    </Container>
  );
}
