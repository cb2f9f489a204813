import { BrandChecker } from '@/features/visual-brand-checker/components/brand-checker';

import { ToolPage } from './tool-page';

export function VisualBrandCheckerRoute() {
  return (
    <ToolPage
      title="Visual brand checker"
      description="Check a visual against the brand rules before it goes out."
    >
      <BrandChecker />
    </ToolPage>
  );
}
