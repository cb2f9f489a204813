import type { CompetitorsResponse } from '@gem/contracts/competitor-search';

import { Notice } from '@/components/ui/notice';
import { formatDateTime } from '@/lib/format-date';

import { countOf } from '../format';
import styles from './competitor-search.module.css';

/** The newest of the competitors' last crawls, or null when none finished yet. */
export function lastCrawlOf(data: CompetitorsResponse): string | null {
  const times = data.competitors.map((c) => c.lastCrawledAt).filter((t): t is string => t !== null);
  return times.length > 0 ? times.reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b)) : null;
}

/** Whether GEM's own index answers and holds no page yet. */
export const isIndexEmpty = (data: CompetitorsResponse | undefined): boolean =>
  data?.provider === 'index' && data.competitors.every((c) => c.pages === 0);

/** How fresh the index is: one line, and per competitor on request. */
export function IndexFreshness({ data }: { data: CompetitorsResponse }) {
  if (data.provider !== 'index') {
    return (
      <p className={styles.freshness}>
        Results come from a hosted web-search service, limited to the competitors&rsquo; sites.
      </p>
    );
  }
  const pages = data.competitors.reduce((sum, c) => sum + c.pages, 0);
  const lastCrawl = lastCrawlOf(data);
  const failing = data.competitors.filter((c) => c.lastError !== null).length;
  return (
    <div className={styles.freshnessBox}>
      {data.sample ? (
        <Notice>
          <strong>Sample corpus.</strong> These pages are fictional, bundled with GEM to show how the search
          works: not what the competitors really published. To search their real pages, ask your GEM
          administrator to turn on crawling of the competitors&rsquo; sites.
        </Notice>
      ) : null}
      <details className={styles.freshnessDetails}>
        <summary className={styles.freshness}>
          <span>
            {data.sample ? 'Sample corpus' : 'Index'}: {countOf(pages, 'page', 'pages')} from{' '}
            {countOf(data.competitors.length, 'competitor', 'competitors')}
          </span>
          <span aria-hidden="true"> · </span>
          <span>
            {lastCrawl ? (
              <>
                last crawled <time dateTime={lastCrawl}>{formatDateTime(lastCrawl)}</time>
              </>
            ) : data.crawling ? (
              'first crawl not finished yet'
            ) : (
              'crawling is off'
            )}
          </span>
          {failing > 0 ? (
            <>
              <span aria-hidden="true"> · </span>
              <span className={styles.freshnessWarning}>
                {countOf(failing, 'site', 'sites')} could not be read last time
              </span>
            </>
          ) : null}
        </summary>
        <table className={styles.freshnessTable}>
          <caption className="visually-hidden">Pages in the index per competitor</caption>
          <thead>
            <tr>
              <th scope="col">Competitor</th>
              <th scope="col">Pages</th>
              <th scope="col">Last crawl</th>
            </tr>
          </thead>
          <tbody>
            {data.competitors.map((c) => (
              <tr key={c.key}>
                <th scope="row">
                  {c.name}
                  <span className={styles.freshnessSite}>{c.siteSearch}</span>
                </th>
                <td>{countOf(c.pages, 'page', 'pages')}</td>
                <td>
                  {c.lastCrawledAt ? (
                    <time dateTime={c.lastCrawledAt}>{formatDateTime(c.lastCrawledAt)}</time>
                  ) : (
                    'Not yet'
                  )}
                  {c.lastError ? <span className={styles.freshnessError}>{c.lastError}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
