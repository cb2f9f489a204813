import { QrCodeGenerator } from '@/features/qr-code-generator/components/qr-code-generator';

import { ToolPage } from './tool-page';

/** Spec §2: /tools/qr-code-generator, the one tool that needs no sign-in. */
export function QrCodeGeneratorRoute() {
  return (
    <ToolPage
      title="QR code generator"
      eyebrow="Tools · free, no sign-in needed"
      description="Print-ready QR codes for posters, flyers and slides: a PNG at the resolution you need, or an SVG."
    >
      <QrCodeGenerator />
    </ToolPage>
  );
}
