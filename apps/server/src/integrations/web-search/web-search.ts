import type { CompetitorSearchItem, SearchSort, WeeklyCount } from '@gem/contracts/competitor-search';
import type { Competitor } from '../../config';
import type { WebQuery } from '../../lib/search-text';

/**
 * The WebSearch port (issue 13): a page of search results in the spec's shape, from GEM's own
 * index of the competitors' sites (index-search.ts) or a hosted web-search API (brave-search.ts).
 */

export type WebSearchRequest = {
  /** The query as typed (trimmed), for services that read it themselves. */
  text: string;
  /** The query as GEM reads it (lib/search-text parseWebQuery), with something that must match. */
  query: WebQuery;
  /** Results per page, 1 to 10. */
  num: number;
  /** The first result's position, from 1. */
  start: number;
  /** Only pages published since then; null for any date. */
  since: Date | null;
  /** The window in days (with since), for services that take a freshness in days. */
  windowDays: number | null;
  now: Date;
  sort: SearchSort;
  /** Whose sites to search: one competitor (siteSearch) or all of them. */
  competitors: readonly Competitor[];
};

export type WebSearchPage = {
  items: CompetitorSearchItem[];
  totalResults: number;
  /** The count stopped at totalResults: there are more ("1,000+"). */
  totalCapped?: boolean;
  /** Where the next page starts; null at the end. */
  nextStart: number | null;
  /** Matching pages per competitor and week (first page, where the service can count them). */
  weeklyCounts?: WeeklyCount[];
};

/** A search's query and filters, for counting every match (no page). */
export type WebSearchCountRequest = Pick<WebSearchRequest, 'query' | 'since' | 'now' | 'competitors'>;

export type WeeklyCountsAnswer = {
  /** Every matching page, dated or not. */
  total: number;
  /** The dated ones per competitor and week, oldest week first. */
  weeklyCounts: WeeklyCount[];
};

export type WebSearch = {
  readonly provider: 'index' | 'brave';
  search(request: WebSearchRequest, signal?: AbortSignal): Promise<WebSearchPage>;
  /** Every match counted per competitor and week, where the service can count them. */
  countWeekly?(request: WebSearchCountRequest): Promise<WeeklyCountsAnswer>;
};

/** The host as a result shows it: without 'www.'. */
export function displayLinkOf(url: string): string {
  try {
    const host = new URL(url).hostname;
    return host.startsWith('www.') ? host.slice(4) : host;
  } catch {
    return '';
  }
}

/** The competitor whose site the URL is under (the longest site wins), else one on the same host. */
export function competitorOf(url: string, competitors: readonly Competitor[]): Competitor | null {
  let best: Competitor | null = null;
  for (const c of competitors) {
    if (url.startsWith(c.site) && (!best || c.site.length > best.site.length)) best = c;
  }
  if (best) return best;
  const host = displayLinkOf(url);
  return competitors.find((c) => displayLinkOf(c.site) === host) ?? null;
}
