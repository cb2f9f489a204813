import type { CompetitorSearchItem } from '@gem/contracts/competitor-search';

import { competitorSource } from '@/features/campaigns/sources/source-item';
import { UseInMenu } from '@/features/campaigns/sources/use-in-menu';
import { CompetitorSearch } from '@/features/competitor-search/components/competitor-search';

import { ToolPage } from './tool-page';

// Defined once, so the memoised result cards do not render again for a new function.
const resultActions = (item: CompetitorSearchItem) => <UseInMenu source={competitorSource(item)} />;

export function CompetitorSearchRoute() {
  return (
    <ToolPage
      title="Competitor search"
      description="What the competitors published in Poland lately on a topic, newest first."
    >
      <CompetitorSearch resultActions={resultActions} />
    </ToolPage>
  );
}
