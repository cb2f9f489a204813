import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { SocialMediaPostGenerator } from '@/features/social-media-post/components/social-media-post-generator';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function SocialMediaPostRoute() {
  useDocumentTitle('Social media post');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Social media post' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Social media post"
        description="Summarize a document, say what the post should do, and get a post in the CEO's voice."
      />
      <SocialMediaPostGenerator />
    </Container>
  );
}
