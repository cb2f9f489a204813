import type { FeedItem } from '@gem/contracts/market-research';
import { memo, useState, type ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';

import { formatItemDate, itemSource } from '../format';
import styles from './market-feed.module.css';

type FeedItemCardProps = {
  item: FeedItem;
  marketId: string;
  sample: boolean;
  /** What can be done with the item, beside it (the page decides: 'Use in…'). */
  itemActions?: ((item: FeedItem) => ReactNode) | undefined;
};

/** One feed item: image or a blank box, title, date, source and excerpt; opens in a new tab. */
export const FeedItemCard = memo(function FeedItemCard({
  item,
  marketId,
  sample,
  itemActions,
}: FeedItemCardProps) {
  const [imageFailed, setImageFailed] = useState(false);
  const showImage = item.image !== null && !imageFailed;
  const source = itemSource(item, marketId);
  return (
    <Panel as="article" className={styles.item}>
      <a className={styles.itemLink} href={item.url} target="_blank" rel="noopener noreferrer">
        {showImage ? (
          <img
            className={styles.itemImage}
            src={item.image ?? undefined}
            alt=""
            width={320}
            height={180}
            loading="lazy"
            decoding="async"
            referrerPolicy="no-referrer"
            onError={() => setImageFailed(true)}
          />
        ) : (
          <div className={styles.itemImage} data-testid="blank-image" aria-hidden="true" />
        )}
        <div className={styles.itemBody}>
          <h3 className={styles.itemTitle}>
            {item.title}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </h3>
          <p className={styles.itemMeta}>
            <span className={styles.itemDate}>{formatItemDate(item.date_published)}</span>
            {source ? (
              <>
                <span aria-hidden="true"> · </span>
                <span className={styles.itemSource}>{source}</span>
              </>
            ) : null}
            {sample ? (
              <Badge tone="brand" size="small">
                Sample
              </Badge>
            ) : null}
          </p>
          {item.content_text ? <p className={styles.itemExcerpt}>{item.content_text}</p> : null}
        </div>
      </a>
      {itemActions ? <div className={styles.itemActions}>{itemActions(item)}</div> : null}
    </Panel>
  );
});
