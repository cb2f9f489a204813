import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { QrCodeGenerator } from '@/features/qr-code-generator/components/qr-code-generator';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

/** Spec §2: /tools/qr-code-generator, the one tool that needs no sign-in. */
export function QrCodeGeneratorRoute() {
  useDocumentTitle('QR code generator');
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: 'QR code generator' }]} />
      <PageHeading
        eyebrow="Tools · free, no sign-in needed"
        title="QR code generator"
        description="Print-ready QR codes for posters, flyers and slides: a PNG at the resolution you need, or an SVG."
      />
      <QrCodeGenerator />
    </Container>
  );
}
