import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { TeaserGenerator } from '@/features/teaser-generator/components/teaser-generator';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function TeaserGeneratorRoute() {
  useDocumentTitle('Teaser generator');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Teaser generator' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Teaser generator"
        description="A short teaser that makes people click, to copy or send by e-mail."
      />
      <TeaserGenerator />
    </Container>
  );
}
