import { describeUrl, HttpFetchError } from '../../../integrations/http/safe-fetch';
import { Declined, httpStatusOf, reasonOf, RoundStopped } from './crawl-errors';
import { allowEverything, parseRobots, ROBOTS_MAX_BYTES, type RobotsRules } from './robots';
import type { SiteFetch } from './site-fetch';
import type { SiteRound } from './site-round';
import { readSitemaps } from './sitemaps';

/**
 * Where a round learns which pages a site has: its robots.txt, the sitemaps robots.txt names (or
 * the usual ones; sitemaps.ts reads them), and the feeds the start page links to. The pages they
 * name go to the round's candidates (candidates.ts), which keep the best of them.
 */

const MAX_FEEDS = 5;
const FEED_TYPES =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.5';

/** Where discovered pages go: the round's candidates. */
export type Finds = {
  /** Offers a page as it was found (any URL: those off the site or seen already are dropped). */
  offer(url: string, dates?: { lastmod?: Date | null; feedDate?: Date | null }): void;
  /** Whether a sitemap dated at most `lastmod` could still add a page. */
  couldTake(lastmod: Date | null): boolean;
};

/**
 * The site's robots.txt: a 4xx means no rules; anything else that fails means GEM cannot know
 * what it may read, and the round stops (RoundStopped).
 */
export async function readRobots(fetch: SiteFetch, origin: string): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  try {
    const answer = await fetch.get(robotsUrl, ROBOTS_MAX_BYTES, 'text/plain, */*;q=0.5', { isRobots: true });
    return answer.status === 'ok' ? parseRobots(robotsUrl, answer.body.toString('utf8')) : allowEverything;
  } catch (err) {
    const status = httpStatusOf(err);
    if (status !== undefined && status >= 400 && status < 500) return allowEverything;
    throw new RoundStopped(
      `GEM could not read ${robotsUrl} (${reasonOf(err)}), so it crawled nothing this round: it reads a site only as its robots.txt allows.`,
    );
  }
}

/** The sitemaps to start from: those robots.txt names on this origin, else the usual places. */
function sitemapRoots({ fetch, origin, site }: SiteRound): string[] {
  const listed = fetch.robots.sitemaps.filter((s) => {
    try {
      return new URL(s).origin === origin;
    } catch {
      return false;
    }
  });
  return listed.length > 0
    ? listed
    : [`${site}sitemap.xml`, `${origin}/sitemap.xml`, `${origin}/sitemap_index.xml`];
}

/** Reads the site's sitemaps as they arrive; one that cannot be read is a problem of the round. */
export async function discoverFromSitemaps(round: SiteRound, finds: Finds): Promise<void> {
  const { fetch, signal } = round;
  const maxBytes = round.tools.maxSitemapBytes;
  await readSitemaps({
    roots: sitemapRoots(round),
    origin: round.origin,
    site: round.site,
    maxBytes,
    now: round.tools.now().getTime(),
    fetch: async (url, onData) => {
      try {
        const answer = await fetch.get(url, maxBytes, 'application/xml, text/xml;q=0.9, */*;q=0.5', {
          onData,
        });
        return answer.status === 'ok';
      } catch (err) {
        if (err instanceof HttpFetchError && err.httpStatus === 404) return false;
        throw err;
      }
    },
    allows: (url) => fetch.robots.allows(url),
    couldTake: (lastmod) => finds.couldTake(lastmod),
    onPage: (entry) => finds.offer(entry.loc, { lastmod: entry.lastmod }),
    onError: (url, err) => {
      if (signal.aborted) throw err;
      if (err instanceof Declined) return;
      round.problems.push(`sitemap ${describeUrl(url)}: ${reasonOf(err)}`);
    },
    signal,
  });
}

/** Reads the feeds the start page names, on this origin; one that cannot be read is a problem of the round. */
export async function discoverFromFeeds(
  round: SiteRound,
  feeds: readonly string[],
  finds: Finds,
): Promise<void> {
  const { fetch, signal } = round;
  for (const feed of feeds.filter((f) => new URL(f).origin === round.origin).slice(0, MAX_FEEDS)) {
    if (signal.aborted) break;
    try {
      const answer = await fetch.get(feed, round.tools.maxFeedBytes, FEED_TYPES);
      if (answer.status !== 'ok') continue;
      const items = await round.tools.feedParser.parse(
        { body: answer.body, contentType: answer.contentType },
        { baseUrl: answer.finalUrl },
        signal,
      );
      for (const item of items) finds.offer(item.url, { feedDate: item.publishedAt });
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof Declined) continue;
      round.problems.push(`feed ${describeUrl(feed)}: ${reasonOf(err)}`);
    }
  }
}
