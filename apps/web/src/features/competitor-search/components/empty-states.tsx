import type { CompetitorsResponse } from '@gem/contracts/competitor-search';

import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { InlineList } from '@/components/ui/inline-list';
import { formatDateTime } from '@/lib/format-date';

import { describeWindow, type SearchState } from '../search-params';
import { lastCrawlOf } from './index-freshness';
import styles from './competitor-search.module.css';

/** Topics a marketer might look into; clicking one searches it. */
export const exampleQueries = ['ESG reporting', 'sztuczna inteligencja', 'cyberbezpieczeństwo'] as const;

/** Before the first search: what the tool does, and three searches to start from. */
export function SearchIntro({ onExample, names }: { onExample: (query: string) => void; names: string[] }) {
  return (
    <EmptyState className={styles.empty}>
      <h2 className={styles.emptyTitle}>See what competitors publish on a topic</h2>
      <p>
        GEM searches the Polish sites of {names.length > 0 ? names.join(', ') : 'six competitors'} for pages
        on your topic, newest first, and charts who published how much each week.
      </p>
      <p>Type a topic above, or try one of these:</p>
      <InlineList spacing="loose">
        {exampleQueries.map((query) => (
          <li key={query}>
            <Button variant="secondary" onClick={() => onExample(query)}>
              {query}
            </Button>
          </li>
        ))}
      </InlineList>
    </EmptyState>
  );
}

type NoResultsProps = {
  search: SearchState;
  /** The chosen competitor's name, when one is chosen. */
  competitorName: string | null;
  onWiden: () => void;
  onAllCompetitors: () => void;
  onOtherWords: () => void;
  canWiden: boolean;
};

/** Nothing matched: say what was searched and offer the three ways out. */
export function NoResults({
  search,
  competitorName,
  onWiden,
  onAllCompetitors,
  onOtherWords,
  canWiden,
}: NoResultsProps) {
  return (
    <EmptyState className={styles.empty} role="status">
      <h2 className={styles.emptyTitle}>No pages match &ldquo;{search.query}&rdquo;</h2>
      <p>
        Nothing {competitorName ? `on ${competitorName}'s site` : 'on the competitors’ sites'} in the last{' '}
        {describeWindow(search.window)} matches. You could:
      </p>
      <InlineList spacing="loose">
        {canWiden ? (
          <li>
            <Button variant="secondary" onClick={onWiden}>
              Search the last 12 months
            </Button>
          </li>
        ) : null}
        <li>
          <Button variant="secondary" onClick={onOtherWords}>
            Try other words
          </Button>
        </li>
        {competitorName ? (
          <li>
            <Button variant="secondary" onClick={onAllCompetitors}>
              Search all competitors
            </Button>
          </li>
        ) : null}
      </InlineList>
    </EmptyState>
  );
}

/** GEM's own index has no page yet: say when it was last crawled, and what happens next. */
export function IndexEmpty({ data }: { data: CompetitorsResponse }) {
  const lastCrawl = lastCrawlOf(data);
  const errors = data.competitors.filter((c) => c.lastError !== null);
  return (
    <EmptyState className={styles.empty} role="status">
      <h2 className={styles.emptyTitle}>The index is still empty</h2>
      <p>
        {lastCrawl ? (
          <>
            The last crawl finished <time dateTime={lastCrawl}>{formatDateTime(lastCrawl)}</time> and found no
            pages.
          </>
        ) : (
          'GEM has not finished reading the competitors’ sites yet.'
        )}{' '}
        {data.crawling
          ? 'The next crawl adds their pages; check back in a few minutes.'
          : 'Crawling is off: to search the competitors’ pages, ask your GEM administrator to turn it on.'}
      </p>
      {errors.length > 0 ? (
        <ul className={styles.errorList}>
          {errors.map((c) => (
            <li key={c.key}>
              {c.name}: {c.lastError}
            </li>
          ))}
        </ul>
      ) : null}
    </EmptyState>
  );
}

/** The search failed: what happened, and what to do. */
export function SearchFailed({
  message,
  requestId,
  onRetry,
  retrying,
}: {
  message: string;
  requestId: string | undefined;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <EmptyState tone="problem" className={styles.empty} role="alert">
      <h2 className={styles.emptyTitle}>The search did not work</h2>
      <p>{message}</p>
      <p>
        Try again in a moment. If it keeps failing, check your connection, or tell the GEM administrators
        {requestId ? (
          <>
            {' '}
            (reference <code>{requestId}</code>)
          </>
        ) : null}
        .
      </p>
      <div>
        <Button variant="primary" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Trying again…' : 'Try again'}
        </Button>
      </div>
    </EmptyState>
  );
}
