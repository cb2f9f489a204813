import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { BriefCreator } from '@/features/brief-creator/components/brief-creator';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function BriefCreatorRoute() {
  useDocumentTitle('Brief creator');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Brief creator' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Brief creator"
        description="Build a marketing brief by chatting with the assistant, then correct it, accept it and export it."
      />
      <BriefCreator />
    </Container>
  );
}
