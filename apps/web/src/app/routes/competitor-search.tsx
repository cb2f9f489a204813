import { CompetitorSearch } from '@/features/competitor-search/components/competitor-search';

import { ToolPage } from './tool-page';

export function CompetitorSearchRoute() {
  return (
    <ToolPage
      title="Competitor search"
      description="What the competitors published in Poland lately on a topic, newest first."
    >
      <CompetitorSearch />
    </ToolPage>
  );
}
