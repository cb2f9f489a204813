import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { BriefCreator } from '@/features/brief-creator/components/brief-creator';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

/**
 * The brief creator's page. Its heading is one line beside the tabs, without a lead: the
 * conversation needs most of the window (issue 27: at least 450 px of it at 1440 × 900).
 */
export function BriefCreatorRoute() {
  useDocumentTitle('Brief creator');
  return (
    <Container className={`${styles.page} ${styles.compact}`}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Brief creator' }]} />
      <BriefCreator heading={<h1 className={styles.compactTitle}>Brief creator</h1>} />
    </Container>
  );
}
