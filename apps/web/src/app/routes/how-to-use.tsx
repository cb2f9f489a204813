import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { HowToUse } from '@/features/how-to-use/components/how-to-use';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function HowToUseRoute() {
  useDocumentTitle('How to use');
  return (
    <Container className={styles.page}>
      <PageHeading
        eyebrow="Help"
        title="How to use GEM"
        description="What each tool does, how to get good results from it, and the limits to keep in mind."
      />
      <HowToUse />
    </Container>
  );
}
