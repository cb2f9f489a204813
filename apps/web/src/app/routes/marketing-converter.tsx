import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { ReturnToMenu, ToolStack } from '@/components/ui/tool-layout';
import { MarketingConverter } from '@/features/marketing-converter/components/marketing-converter';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

export function MarketingConverterRoute() {
  useDocumentTitle('Marketing converter');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'Marketing converter' }]} />
      <PageHeading
        eyebrow="Tools"
        title="Marketing converter"
        description="Turn WebVTT captions into SRT subtitles that fit the screen: 47 characters a line, 3 lines at most."
      />
      <ToolStack>
        <MarketingConverter />
        <ReturnToMenu />
      </ToolStack>
    </Container>
  );
}
