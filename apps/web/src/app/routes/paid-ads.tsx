import { PaidAdsGenerator } from '@/features/paid-ads/components/paid-ads-generator';

import { ToolPage } from './tool-page';

export function PaidAdsRoute() {
  return (
    <ToolPage
      title="Paid ads"
      description="Ad copy from your base content, with GEM's reasoning, within the 600-character limit."
    >
      <PaidAdsGenerator />
    </ToolPage>
  );
}
