import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { BrandChecker } from '@/features/visual-brand-checker/components/brand-checker';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function VisualBrandCheckerRoute() {
  useDocumentTitle('Visual brand checker');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Visual brand checker' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Visual brand checker"
        description="Check a visual against the brand rules before it goes out."
      />
      <BrandChecker />
    </Container>
  );
}
