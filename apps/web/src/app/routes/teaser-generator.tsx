import { TeaserGenerator } from '@/features/teaser-generator/components/teaser-generator';

import { ToolPage } from './tool-page';

export function TeaserGeneratorRoute() {
  return (
    <ToolPage
      title="Teaser generator"
      description="A short teaser that makes people click, to copy or send by e-mail."
    >
      <TeaserGenerator />
    </ToolPage>
  );
}
