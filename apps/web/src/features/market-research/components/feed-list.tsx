import type { FeedItem } from '@gem/contracts/market-research';
import { useEffect, useRef, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';

import { FeedItemCard } from './feed-item-card';
import styles from './market-feed.module.css';

type FeedListProps = {
  items: FeedItem[];
  marketId: string;
  sample: boolean;
  label: string;
  hasMore: boolean;
  loadingMore: boolean;
  loadMoreFailed: boolean;
  onLoadMore: () => void;
  /** Beside each item (a stable function, so the cards stay memoised). */
  itemActions?: ((item: FeedItem) => ReactNode) | undefined;
};

/**
 * The items, newest first. The next page loads when the end of the list comes near; a
 * button does the same for keyboards and when the observer is unavailable. The cards are
 * memoised, so a new page renders only its own items; a thousand of them scroll at 60 fps
 * without windowing (bench/market-items.md).
 */
export function FeedList({
  items,
  marketId,
  sample,
  label,
  hasMore,
  loadingMore,
  loadMoreFailed,
  onLoadMore,
  itemActions,
}: FeedListProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const loadMore = useRef(onLoadMore);
  useEffect(() => {
    loadMore.current = onLoadMore;
  });

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasMore || loadMoreFailed || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore.current();
      },
      { rootMargin: '800px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, loadMoreFailed, items.length]);

  return (
    <>
      <ol className={styles.list} aria-label={label}>
        {items.map((item) => (
          <li key={item.id} className={styles.listItem}>
            <FeedItemCard item={item} marketId={marketId} sample={sample} itemActions={itemActions} />
          </li>
        ))}
      </ol>
      <div ref={sentinel} className={styles.more}>
        {loadMoreFailed ? (
          <p role="alert" className={styles.moreText}>
            More items could not be loaded.
          </p>
        ) : null}
        {hasMore ? (
          <Button variant="secondary" onClick={onLoadMore} disabled={loadingMore}>
            {loadingMore ? 'Loading…' : loadMoreFailed ? 'Try again' : 'Load more'}
          </Button>
        ) : items.length > 0 ? (
          <p className={styles.moreText}>You have reached the end of this feed.</p>
        ) : null}
      </div>
    </>
  );
}
