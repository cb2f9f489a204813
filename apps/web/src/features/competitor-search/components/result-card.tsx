import type { CompetitorSearchItem } from '@gem/contracts/competitor-search';
import { memo, type ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { formatDate } from '@/lib/format-date';

import { webLink } from '../format';
import styles from './competitor-search.module.css';

type ResultCardProps = {
  item: CompetitorSearchItem;
  /** The competitor whose site it is on, when it is one of them: its name and chart colour. */
  firmName?: string | null;
  firmColour?: string;
  /** What can be done with the result, at its foot (the page decides: 'Use in…'). */
  resultActions?: ((item: CompetitorSearchItem) => ReactNode) | undefined;
};

/**
 * One result: title, the competitor (its chart colour and name), site, date, snippet with the
 * matched words marked, 'Read More' in a new tab. Every part is text: React escapes it, and
 * matches are <mark> elements GEM makes itself.
 */
export const ResultCard = memo(function ResultCard({
  item,
  firmName,
  firmColour,
  resultActions,
}: ResultCardProps) {
  const link = webLink(item.link);
  const parts = item.snippetParts.length > 0 ? item.snippetParts : [{ text: item.snippet, match: false }];
  return (
    <Panel as="article" className={styles.card}>
      <h3 className={styles.cardTitle}>{item.title}</h3>
      <p className={styles.cardMeta}>
        {firmName ? (
          <>
            <span className={styles.cardFirm}>
              {/* The name says who it is; the dot only matches the chart's colour for them. */}
              <svg className={styles.firmDot} viewBox="0 0 10 10" aria-hidden="true" focusable="false">
                <circle cx="5" cy="5" r="5" fill={firmColour} />
              </svg>
              {firmName}
            </span>
            <span aria-hidden="true">·</span>
          </>
        ) : null}
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
      {link || resultActions ? (
        <div className={styles.cardFoot}>
          {link ? (
            <a className={styles.readMore} href={link} target="_blank" rel="noopener noreferrer">
              Read More
              <span className="visually-hidden">: {item.title} (opens in a new tab)</span>
            </a>
          ) : null}
          {resultActions ? <div className={styles.cardActions}>{resultActions(item)}</div> : null}
        </div>
      ) : null}
    </Panel>
  );
});
