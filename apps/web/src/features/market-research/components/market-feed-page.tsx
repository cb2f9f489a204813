import { findMarketArea } from '@gem/contracts/catalogue';
import type { FeedItem } from '@gem/contracts/market-research';
import { useCallback, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { Container } from '@/components/ui/container';
import { EmptyState } from '@/components/ui/empty-state';
import { Notice } from '@/components/ui/notice';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { formatDateTime } from '@/lib/format-date';

import { useMarketFeed } from '../api/get-market-feed';
import { FeedList } from './feed-list';
import { FeedSearch } from './feed-search';
import styles from './market-feed.module.css';
import { MarketNotFound } from './market-not-found';
import { MarketPanel } from './market-panel';

type MarketFeedPageProps = {
  marketId: string;
  subMarketId?: string | undefined;
  /** What can be done with each item, beside it ('Use in…', which the page brings). */
  itemActions?: (item: FeedItem) => ReactNode;
};

/** /market-research/:marketId and /:marketId/:subMarketId: the area panel and its news feed. */
export function MarketFeedPage({ marketId, subMarketId, itemActions }: MarketFeedPageProps) {
  const area = findMarketArea(marketId);
  const sub = subMarketId === undefined ? undefined : area?.children.find((c) => c.slug === subMarketId);
  const known = area !== undefined && (subMarketId === undefined || sub !== undefined);

  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q')?.trim() ?? '';
  const onSearch = useCallback(
    (next: string) =>
      setSearchParams(
        (params) => {
          const updated = new URLSearchParams(params);
          if (next) updated.set('q', next);
          else updated.delete('q');
          return updated;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  const feed = useMarketFeed({ marketId, subMarketId, q }, { enabled: known });
  useDocumentTitle(known ? (sub ? `${sub.name} · ${area.name}` : area.name) : 'Url you provided is wrong');

  // Spec §2 and §8: an unknown market, or a failed load, shows the wrong-URL message.
  if (!known || (feed.isError && !feed.data)) return <MarketNotFound />;

  const first = feed.data?.pages[0];
  const status = first?.feed;
  const items = feed.data?.pages.flatMap((p) => p.items) ?? [];
  const heading = sub ? sub.name : 'Latest news';
  const name = sub?.name ?? area.name;

  return (
    <Container className={styles.page}>
      <MarketPanel market={area} summary={sub ? undefined : area.summary} />
      <section className={styles.feed} aria-labelledby="feed-title">
        <header className={styles.feedHeader}>
          <div className={styles.feedHeading}>
            <h2 id="feed-title" className={styles.feedTitle}>
              {heading}
            </h2>
            {status?.configured && status.lastRefreshedAt ? (
              <p className={styles.refreshed}>
                Last refreshed{' '}
                <time dateTime={status.lastRefreshedAt}>{formatDateTime(status.lastRefreshedAt)}</time>
              </p>
            ) : null}
          </div>
          {status?.configured === false ? null : (
            <FeedSearch
              key={`${marketId}/${subMarketId ?? ''}`}
              value={q}
              onSearch={onSearch}
              label={`Search ${name} news`}
            />
          )}
        </header>

        {status?.sample ? (
          <Notice>
            <strong>Sample content.</strong> These items are fictional, bundled with GEM to show how a feed
            looks: not real news. For real news here, ask your GEM administrator to set up this area&rsquo;s
            feed.
          </Notice>
        ) : null}
        {status?.failingSince ? (
          <Notice tone="neutral" role="status">
            This feed could not be refreshed since{' '}
            <time dateTime={status.failingSince}>{formatDateTime(status.failingSince)}</time>. You are seeing
            the last items GEM read from it.
          </Notice>
        ) : null}

        {feed.isPending ? (
          <p className={styles.loading} role="status">
            Loading the latest news…
          </p>
        ) : status && !status.configured ? (
          <EmptyState spacing="tight" className={styles.empty}>
            <h3>No feed configured</h3>
            <p>
              No news feed is set up for {name} yet. To see its news here, ask your GEM administrator to add
              one.
            </p>
          </EmptyState>
        ) : items.length === 0 ? (
          <EmptyState spacing="tight" className={styles.empty} role="status">
            {q ? (
              <>
                <h3>No items match &ldquo;{q}&rdquo;</h3>
                <p>Try fewer or different words.</p>
              </>
            ) : status?.lastRefreshedAt ? (
              <>
                <h3>No news yet</h3>
                <p>The feed is working but has no items at the moment.</p>
              </>
            ) : (
              <>
                <h3>No news yet</h3>
                <p>GEM is reading this feed for the first time. Check back in a minute.</p>
              </>
            )}
          </EmptyState>
        ) : (
          <FeedList
            items={items}
            marketId={marketId}
            sample={status?.sample ?? false}
            label={q ? `${name} news matching ${q}` : `${name} news`}
            hasMore={feed.hasNextPage}
            loadingMore={feed.isFetchingNextPage}
            loadMoreFailed={feed.isFetchNextPageError}
            onLoadMore={() => void feed.fetchNextPage()}
            itemActions={itemActions}
          />
        )}
      </section>
    </Container>
  );
}
