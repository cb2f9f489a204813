import type { CompetitorSearchItem } from '@gem/contracts/competitor-search';
import { memo } from 'react';

import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { formatDate } from '@/lib/format-date';

import { webLink } from '../format';
import styles from './competitor-search.module.css';

/**
 * One result: title, site, date, snippet with the matched words marked, 'Read More' in a new
 * tab. Every part is text: React escapes it, and matches are <mark> elements GEM makes itself.
 */
export const ResultCard = memo(function ResultCard({ item }: { item: CompetitorSearchItem }) {
  const link = webLink(item.link);
  const parts = item.snippetParts.length > 0 ? item.snippetParts : [{ text: item.snippet, match: false }];
  return (
    <Panel as="article" className={styles.card}>
      <h3 className={styles.cardTitle}>{item.title}</h3>
      <p className={styles.cardMeta}>
        <span className={styles.cardSite}>{item.displayLink}</span>
        <span aria-hidden="true">·</span>
        {item.publishedAt ? (
          <time dateTime={item.publishedAt} className={styles.cardDate}>
            {formatDate(item.publishedAt)}
          </time>
        ) : (
          <span className={styles.cardDate}>Unknown date</span>
        )}
        {item.sample ? (
          <Badge tone="brand" size="small">
            Sample
          </Badge>
        ) : null}
      </p>
      <p className={styles.snippet}>
        {parts.map((part, index) =>
          part.match ? (
            <mark key={index} className={styles.match}>
              {part.text}
            </mark>
          ) : (
            <span key={index}>{part.text}</span>
          ),
        )}
      </p>
      {link ? (
        <a className={styles.readMore} href={link} target="_blank" rel="noopener noreferrer">
          Read More
          <span className="visually-hidden">: {item.title} (opens in a new tab)</span>
        </a>
      ) : null}
    </Panel>
  );
});
