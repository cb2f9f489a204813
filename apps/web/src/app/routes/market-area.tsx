import type { FeedItem } from '@gem/contracts/market-research';
import { useParams } from 'react-router';

import { marketResearchSource } from '@/features/campaigns/sources/source-item';
import { UseInMenu } from '@/features/campaigns/sources/use-in-menu';
import { MarketFeedPage } from '@/features/market-research/components/market-feed-page';

// Defined once, so the feed's memoised cards do not render again for a new function.
const itemActions = (item: FeedItem) => <UseInMenu source={marketResearchSource(item)} />;

/** /market-research/:marketId and /market-research/:marketId/:subMarketId. */
export function MarketAreaRoute() {
  const { marketId = '', subMarketId } = useParams();
  return (
    <MarketFeedPage
      key={`${marketId}/${subMarketId ?? ''}`}
      marketId={marketId}
      subMarketId={subMarketId}
      itemActions={itemActions}
    />
  );
}
