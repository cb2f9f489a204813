import robotsParser from 'robots-parser';

/**
 * A site's robots.txt, read with robots-parser (Google's matching rules: longest match wins,
 * Allow over Disallow on a tie, `*` and `$` wildcards, groups for GEM's agent or `*`).
 */

/** The product token GEM's crawler answers to in robots.txt groups. */
export const CRAWLER_TOKEN = 'GEM-crawler';
export const CRAWLER_USER_AGENT = `${CRAWLER_TOKEN}/1.0 (+internal marketing workspace; reads public pages, honours robots.txt)`;

/** robots.txt files larger than this are read only this far (Google reads 500 KiB). */
export const ROBOTS_MAX_BYTES = 512 * 1024;
/** The longest Crawl-delay honoured; a site asking for more is crawled this slowly. */
export const MAX_CRAWL_DELAY_MS = 60_000;

export type RobotsRules = {
  allows(url: string): boolean;
  /** The site's Crawl-delay for GEM (or `*`) in ms, capped; undefined when none. */
  crawlDelayMs: number | undefined;
  sitemaps: string[];
};

/** No robots.txt (a 4xx answer): everything may be read. */
export const allowEverything: RobotsRules = { allows: () => true, crawlDelayMs: undefined, sitemaps: [] };

export function parseRobots(robotsUrl: string, text: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(CRAWLER_TOKEN);
  return {
    // robots-parser answers undefined for another host's URL: GEM reads nothing it cannot check.
    allows: (url) => robots.isAllowed(url, CRAWLER_TOKEN) === true,
    crawlDelayMs:
      typeof delay === 'number' && Number.isFinite(delay) && delay > 0
        ? Math.min(delay * 1000, MAX_CRAWL_DELAY_MS)
        : undefined,
    sitemaps: robots.getSitemaps(),
  };
}
