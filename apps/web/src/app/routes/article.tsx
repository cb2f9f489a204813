import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { ArticleGenerator } from '@/features/article/components/article-generator';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function ArticleRoute() {
  useDocumentTitle('Article');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Article' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Article"
        description="Turn your base content into a short article, ready to check and copy."
      />
      <ArticleGenerator />
    </Container>
  );
}
