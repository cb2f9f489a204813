import { useParams } from 'react-router';

import { MarketFeedPage } from '@/features/market-research/components/market-feed-page';

/** /market-research/:marketId and /market-research/:marketId/:subMarketId. */
export function MarketAreaRoute() {
  const { marketId = '', subMarketId } = useParams();
  return (
    <MarketFeedPage key={`${marketId}/${subMarketId ?? ''}`} marketId={marketId} subMarketId={subMarketId} />
  );
}
