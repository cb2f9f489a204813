import { CheckText } from '@/features/brand-voice/components/check-text';

import { ToolPage } from './tool-page';

export function BrandVoiceRoute() {
  return (
    <ToolPage
      title="Check text"
      description="Check any text against the firm’s brand voice and style guide, and fix what it finds."
    >
      <CheckText />
    </ToolPage>
  );
}
