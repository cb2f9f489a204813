import type { FastifyBaseLogger } from 'fastify';
import type { Competitor } from '../../../config/competitors';
import type { Db } from '../../../db/client';
import type { FeedParser } from '../../../integrations/feeds/feed-parser';
import type { AddressPolicy } from '../../../integrations/http/address-policy';
import { describeUrl, HttpFetchError } from '../../../integrations/http/safe-fetch';
import type { Candidate } from './candidates';
import { reasonOf, RoundStopped } from './crawl-errors';
import type { StoredPage } from './crawl-store';
import { PageParseError, type PageParser } from './page-parser';
import type { HostGate } from './politeness';
import { createSiteFetch, type SiteFetch } from './site-fetch';

/**
 * One competitor's round as it goes: what it counts, what it has seen, and the crawler's tools
 * it works with. Discovery (discovery.ts), fetching a page (fetch-page.ts) and the round itself
 * (crawl-site.ts) share it.
 */

export type CrawlOutcome = {
  key: string;
  /** Pages written to the index (new or changed). */
  stored: number;
  /** Pages the site said had not changed (304). */
  unchanged: number;
  /** Pages left out: robots.txt, noindex, not HTML, off the site, duplicates, gone. */
  skipped: number;
  /** Pages that could not be read. */
  failed: number;
  /** What went wrong, for people (as in competitor_crawls.last_error); null when nothing did. */
  error: string | null;
};

/** What every round of a crawler works with: its settings, resolved, and its shared parts. */
export type CrawlTools = {
  db: Db;
  log: FastifyBaseLogger;
  now: () => Date;
  /** One host gate for the crawler: competitors on one host take turns. */
  gate: HostGate;
  isPermittedAddress: AddressPolicy;
  timeoutMs: number;
  delayMs: number;
  maxPagesPerRound: number;
  maxPageBytes: number;
  maxSitemapBytes: number;
  maxFeedBytes: number;
  pageParser: PageParser;
  feedParser: FeedParser;
};

export type SiteRound = {
  tools: CrawlTools;
  key: string;
  /** The competitor's site path (`https://x/pl/`): pages under it are the competitor's. */
  site: string;
  origin: string;
  signal: AbortSignal;
  fetch: SiteFetch;
  outcome: CrawlOutcome;
  /** Documents that could not be read, for the round's error. */
  problems: string[];
  /** The competitor's crawled pages in the index, by URL. */
  stored: ReadonlyMap<string, StoredPage>;
  /** Pages fetched this round, under each URL they answered to: never fetched again. */
  visited: Set<string>;
  /** Canonical URLs stored this round: a second page with one is a duplicate. */
  seenCanonical: Set<string>;
  /** Pages to ask again once the host's Retry-After has passed. */
  retryQueue: Candidate[];
  /** Pages fetched so far (up to maxPagesPerRound). */
  fetched: number;
  failuresInARow: number;
};

/** Failures in a row after which a site counts as down for the round. */
const MAX_FAILURES_IN_A_ROW = 5;

export function createSiteRound(
  tools: CrawlTools,
  { key, site }: Competitor,
  signal: AbortSignal,
  stored: ReadonlyMap<string, StoredPage>,
): SiteRound {
  const origin = new URL(site).origin;
  const fetch = createSiteFetch({ ...tools, origin, signal });
  return {
    tools,
    key,
    site,
    origin,
    signal,
    fetch,
    outcome: { key, stored: 0, unchanged: 0, skipped: 0, failed: 0, error: null },
    problems: [],
    stored,
    visited: new Set(),
    seenCanonical: new Set(),
    retryQueue: [],
    fetched: 0,
    failuresInARow: 0,
  };
}

/** Counts a page left out; answers undefined, as a page that gives no links does. */
export function skipPage(round: SiteRound): undefined {
  round.outcome.skipped += 1;
  return undefined;
}

/** Counts a page that could not be read; too many in a row stop the round (RoundStopped). */
export function failPage(round: SiteRound, url: string, err: unknown): void {
  round.outcome.failed += 1;
  round.failuresInARow += 1;
  round.problems.push(`${describeUrl(url)}: ${reasonOf(err)}`);
  if (!(err instanceof HttpFetchError || err instanceof PageParseError)) {
    round.tools.log.warn({ err, competitor: round.key, page: describeUrl(url) }, 'competitor page failed');
  }
  if (round.failuresInARow >= MAX_FAILURES_IN_A_ROW) {
    throw new RoundStopped(
      `${round.failuresInARow} pages in a row could not be read, so GEM stopped crawling the site this round (last: ${reasonOf(err)})`,
    );
  }
}

/** The round's error for people: what stopped it, and the first documents that could not be read. */
export function roundError({ outcome, problems }: SiteRound): string | null {
  if (!outcome.error && problems.length > 0) {
    const pages = outcome.failed === 1 ? '1 page' : `${outcome.failed} pages`;
    const lead = outcome.failed > 0 ? `${pages} could not be read` : 'some documents could not be read';
    return `${lead}: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}`;
  }
  if (outcome.error && problems.length > 0) {
    return `${outcome.error}; before that: ${problems.slice(0, 2).join('; ')}`;
  }
  return outcome.error;
}
