import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Competitor } from '../../../config/competitors';
import type { Db } from '../../../db/client';
import { competitorCrawls, competitorPages } from '../../../db/schema/competitor-search';
import { createFeedParser, type FeedParser } from '../../../integrations/feeds/feed-parser';
import { addressPolicy, type AddressPolicy } from '../../../integrations/http/address-policy';
import {
  describeUrl,
  HttpFetchError,
  safeFetch,
  type FetchResult,
  type Validators,
} from '../../../integrations/http/safe-fetch';
import type { Scheduler } from '../../../lib/scheduler';
import { recordCrawl, removeCompetitorPages, upsertCompetitorPages } from '../competitor-index';
import { createCandidateSet, type Candidate, type Tier } from './candidates';
import { isUnderSite, pageKey } from './crawl-urls';
import type { PageFacts } from './page-facts';
import { createPageParser, PageParseError, type PageParser } from './page-parser';
import { createHostGate, realSleep, retryAfterMs, type HostGate, type Sleep } from './politeness';
import {
  allowEverything,
  CRAWLER_TOKEN,
  CRAWLER_USER_AGENT,
  parseRobots,
  ROBOTS_MAX_BYTES,
  type RobotsRules,
} from './robots';
import { readSitemaps, SitemapError } from './sitemaps';

/**
 * The competitor crawler (issue 13). A round reads, for each competitor, robots.txt, the
 * sitemaps it names (or the usual ones: indexes and gzipped files too; read as they arrive,
 * sitemaps.ts), the feeds the site's start page links to, and then the pages under the
 * competitor's site path, newest changes first, up to a cap per round, out of a few times that
 * many candidates (candidates.ts). Each page goes through the SSRF-safe fetch (every hop's address
 * checked) with a conditional GET when the index has its validators, waits its turn for the host
 * (politeness.ts), is parsed on a worker thread (page-parser.ts) and stored under its canonical
 * URL in the competitor index. The round is a scheduler task, so one instance crawls at a time.
 */

export type CrawlerOptions = {
  db: Db;
  competitors: readonly Competitor[];
  /** The pause between two requests to one host (GEM_COMPETITORS_CRAWL_DELAY_MS). */
  delayMs: number;
  /** Pages fetched per competitor and round (GEM_COMPETITORS_MAX_PAGES_PER_ROUND). */
  maxPagesPerRound: number;
  /** GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS. */
  allowPrivateHosts: boolean;
  log: FastifyBaseLogger;
  /** Overrides the address policy allowPrivateHosts chooses (tests: the site host and nothing else private). */
  isPermittedAddress?: AddressPolicy;
  /** For one request, redirects included. */
  timeoutMs?: number;
  maxPageBytes?: number;
  maxSitemapBytes?: number;
  /** Time one page may take to parse. */
  parseBudgetMs?: number;
  /** Competitors crawled at the same time (each on its own host, usually). */
  concurrency?: number;
  /** The clock and the politeness pause: tests hand in a virtual clock. */
  now?: () => Date;
  sleep?: Sleep;
};

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

export type CompetitorCrawler = {
  /** One round over every competitor, or those `keys` name. */
  crawl(options?: { keys?: readonly string[]; signal?: AbortSignal }): Promise<CrawlOutcome[]>;
  close(): Promise<void>;
};

/** The round's name in scheduled_tasks. */
export const COMPETITOR_CRAWL_TASK = 'competitor-search.crawl';
const LEASE_MS = 2 * 60_000;
export const CRAWL_TIMEOUT_MS = 15_000;
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
export const MAX_SITEMAP_BYTES = 20 * 1024 * 1024;
/**
 * Pages a round keeps in view per page it may fetch: sitemaps and feeds may name millions, and
 * the round keeps only the best of them (candidates.ts), with room for those it will skip.
 */
const CANDIDATES_PER_PAGE = 4;
const MAX_FEEDS = 5;
/** The longest Retry-After GEM waits for within a round; longer, and the site waits for the next round. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;
/** Without Retry-After, a 429 means this. */
const DEFAULT_BACKOFF_MS = 30_000;
/** Failures in a row after which a site counts as down for the round. */
const MAX_FAILURES_IN_A_ROW = 5;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const NEVER = new AbortController().signal;

/** A request the crawler itself declines (robots.txt, off the site): not the site's fault. */
class Declined extends Error {
  override name = 'Declined';
}

/** The competitor's round cannot go on (robots.txt unreadable, the site asks for a long pause). */
class RoundStopped extends Error {
  override name = 'RoundStopped';
}

type StoredPage = { etag: string | null; lastModified: string | null; fetchedAt: Date };

/** Words for a failed fetch that a person reading `gem competitors status` understands. */
function reasonOf(err: unknown): string {
  if (err instanceof HttpFetchError) {
    if (err.reason === 'blocked_address') {
      return `${err.message} (set GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS=true only for hosts on your own network)`;
    }
    if (err.reason === 'too_large') return err.message.replace('the document', 'the page');
    return err.message;
  }
  if (
    err instanceof PageParseError ||
    err instanceof SitemapError ||
    err instanceof Declined ||
    err instanceof RoundStopped
  )
    return err.message;
  return 'an unexpected error (see the server log)';
}

const mediaType = (contentType: string | undefined) =>
  (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();

/** The X-Robots-Tag directives that apply to GEM: unscoped ones and those for its agent. */
function headerDirectives(headers: Record<string, string | string[] | undefined>): Set<string> {
  const raw = headers['x-robots-tag'];
  const values = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const directives = new Set<string>();
  for (const value of values) {
    let scope: string | undefined;
    for (const part of value.toLowerCase().split(',')) {
      let item = part.trim();
      const colon = item.indexOf(':');
      // "gem-crawler: noindex" scopes what follows to one agent; "unavailable_after: <date>" is a directive.
      if (colon > 0 && !item.startsWith('unavailable_after')) {
        scope = item.slice(0, colon).trim();
        item = item.slice(colon + 1).trim();
      }
      if (scope === undefined || scope === CRAWLER_TOKEN.toLowerCase()) directives.add(item);
    }
  }
  return directives;
}

export function createCompetitorCrawler(options: CrawlerOptions): CompetitorCrawler {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? realSleep;
  const gate: HostGate = createHostGate({ now: () => now().getTime(), sleep });
  const isPermittedAddress = options.isPermittedAddress ?? addressPolicy(options.allowPrivateHosts);
  const timeoutMs = options.timeoutMs ?? CRAWL_TIMEOUT_MS;
  const pageParser: PageParser = createPageParser({ budgetMs: options.parseBudgetMs });
  const feedParser: FeedParser = createFeedParser({ budgetMs: options.parseBudgetMs });

  async function crawlCompetitor(competitor: Competitor, signal: AbortSignal): Promise<CrawlOutcome> {
    const { key, site } = competitor;
    const origin = new URL(site).origin;
    const outcome: CrawlOutcome = { key, stored: 0, unchanged: 0, skipped: 0, failed: 0, error: null };
    const problems: string[] = [];
    const startedAt = now();
    const [previous] = await db
      .select({ lastStartedAt: competitorCrawls.lastStartedAt })
      .from(competitorCrawls)
      .where(eq(competitorCrawls.competitorKey, key));
    const since = previous?.lastStartedAt ?? null;
    await recordCrawl(db, key, { startedAt, finishedAt: null, error: null, pages: 0 });

    const stored = new Map<string, StoredPage>();
    for (const row of await db
      .select({
        url: competitorPages.url,
        etag: competitorPages.etag,
        lastModified: competitorPages.lastModified,
        fetchedAt: competitorPages.fetchedAt,
        sample: competitorPages.sample,
      })
      .from(competitorPages)
      .where(eq(competitorPages.competitorKey, key))) {
      if (!row.sample) stored.set(row.url, row);
    }

    let robots: RobotsRules = allowEverything;
    let gapMs = options.delayMs;

    /** Every request of the round: on the site's origin only, robots.txt obeyed, one at a time per host. */
    const get = (
      url: string,
      maxBytes: number,
      accept: string,
      {
        validators,
        isRobots = false,
        onData,
      }: { validators?: Validators; isRobots?: boolean; onData?: (chunk: Buffer) => boolean } = {},
    ) =>
      safeFetch(url, {
        isPermittedAddress,
        timeoutMs,
        maxBytes,
        userAgent: CRAWLER_USER_AGENT,
        accept,
        validators,
        onData,
        signal,
        beforeRequest: async (target) => {
          if (target.origin !== origin)
            throw new Declined(`${describeUrl(url)} leads off the site, to ${describeUrl(target.href)}`);
          if (!isRobots && !robots.allows(target.href))
            throw new Declined(`robots.txt disallows ${describeUrl(target.href)}`);
          await gate.wait(target.host, gapMs, signal);
        },
      });

    // robots.txt: a 4xx means no rules; anything else that fails means GEM cannot know what it may read.
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const answer = await get(robotsUrl, ROBOTS_MAX_BYTES, 'text/plain, */*;q=0.5', { isRobots: true });
      if (answer.status === 'ok') robots = parseRobots(robotsUrl, answer.body.toString('utf8'));
    } catch (err) {
      const status = err instanceof HttpFetchError ? err.httpStatus : undefined;
      if (status === undefined || status < 400 || status >= 500) {
        if (signal.aborted) return outcome;
        outcome.error = `GEM could not read ${robotsUrl} (${reasonOf(err)}), so it crawled nothing this round: it reads a site only as its robots.txt allows.`;
        await finish();
        return outcome;
      }
    }
    if (robots.crawlDelayMs !== undefined && robots.crawlDelayMs > gapMs) gapMs = robots.crawlDelayMs;

    // The frontier: changed since the last round first, then pages new to the index, then the
    // rest, revalidated with a conditional GET, least recently fetched first (candidates.ts).
    const candidateSet = createCandidateSet({
      cap: CANDIDATES_PER_PAGE * options.maxPagesPerRound,
      since,
      stored,
      admits: (page) => robots.allows(page),
    });
    const visited = new Set<string>();
    const addCandidate = (raw: string, dates: { lastmod?: Date | null; feedDate?: Date | null } = {}) => {
      const page = pageKey(raw);
      if (!page || !isUnderSite(page, site) || visited.has(page)) return;
      candidateSet.offer(page, dates);
    };
    const discovered: string[] = [];

    let fetched = 0;
    let failuresInARow = 0;
    const seenCanonical = new Set<string>();

    const fail = (url: string, err: unknown) => {
      outcome.failed += 1;
      failuresInARow += 1;
      problems.push(`${describeUrl(url)}: ${reasonOf(err)}`);
      if (!(err instanceof HttpFetchError || err instanceof PageParseError)) {
        log.warn({ err, competitor: key, page: describeUrl(url) }, 'competitor page failed');
      }
      if (failuresInARow >= MAX_FAILURES_IN_A_ROW) {
        throw new RoundStopped(
          `${failuresInARow} pages in a row could not be read, so GEM stopped crawling the site this round (last: ${reasonOf(err)})`,
        );
      }
    };

    /** Fetches and stores one page; returns its facts when it was read. */
    async function crawlPage(candidate: Candidate): Promise<PageFacts | undefined> {
      const url = candidate.key;
      visited.add(url);
      if (!robots.allows(url)) {
        outcome.skipped += 1;
        return undefined;
      }
      fetched += 1;
      const prior = stored.get(url);
      let answer: FetchResult;
      try {
        answer = await get(
          url,
          options.maxPageBytes ?? MAX_PAGE_BYTES,
          'text/html, application/xhtml+xml;q=0.9, */*;q=0.1',
          { validators: prior },
        );
      } catch (err) {
        if (signal.aborted) throw err;
        if (err instanceof Declined) {
          outcome.skipped += 1;
          return undefined;
        }
        const status = err instanceof HttpFetchError ? err.httpStatus : undefined;
        if (status === 404 || status === 410) {
          // Gone from the site: gone from the index.
          if (prior) await removeCompetitorPages(db, [url]);
          outcome.skipped += 1;
          failuresInARow = 0;
          return undefined;
        }
        if ((status === 429 || status === 503) && err instanceof HttpFetchError) {
          const wait =
            retryAfterMs(err.retryAfter, now().getTime()) ??
            (status === 429 ? DEFAULT_BACKOFF_MS : undefined);
          if (wait !== undefined) {
            if (wait > MAX_RETRY_AFTER_MS) {
              throw new RoundStopped(
                `the site asked GEM to wait ${Math.round(wait / 1000)} s (HTTP ${status}), so it stopped crawling it this round`,
              );
            }
            gate.holdOff(new URL(url).host, wait);
            if (!candidate.retried) {
              fetched -= 1;
              visited.delete(url);
              retryQueue.push({ ...candidate, retried: true });
              return undefined;
            }
          }
        }
        fail(url, err);
        return undefined;
      }
      failuresInARow = 0;
      if (answer.status === 'not-modified') {
        outcome.unchanged += 1;
        return undefined;
      }
      const finalKey = pageKey(answer.finalUrl);
      if (!finalKey || !isUnderSite(finalKey, site)) {
        outcome.skipped += 1;
        return undefined;
      }
      visited.add(finalKey);
      if (!HTML_TYPES.has(mediaType(answer.contentType))) {
        outcome.skipped += 1;
        return undefined;
      }
      let facts: PageFacts;
      try {
        facts = await pageParser.page(answer.body, answer.contentType, answer.finalUrl);
      } catch (err) {
        fail(url, err);
        return undefined;
      }
      const header = headerDirectives(answer.headers);
      const noindex = facts.noindex || header.has('noindex') || header.has('none');
      const nofollow = facts.nofollow || header.has('nofollow') || header.has('none');
      const canonicalKey = facts.canonical ? pageKey(facts.canonical) : undefined;
      const canonical = canonicalKey && isUnderSite(canonicalKey, site) ? canonicalKey : finalKey;
      if (noindex) {
        const gone = [...new Set([url, finalKey, canonical])].filter((u) => stored.has(u));
        if (gone.length > 0) await removeCompetitorPages(db, gone);
        outcome.skipped += 1;
        return nofollow ? undefined : facts;
      }
      visited.add(canonical);
      if (seenCanonical.has(canonical)) {
        outcome.skipped += 1;
        return nofollow ? undefined : facts;
      }
      seenCanonical.add(canonical);
      const publishedAt = facts.publishedAt
        ? new Date(facts.publishedAt)
        : (candidate.feedDate ?? candidate.lastmod);
      // The validators belong to the URL fetched: kept only when the row is that URL.
      const own = canonical === url;
      await upsertCompetitorPages(
        db,
        [
          {
            competitorKey: key,
            url: canonical,
            title: facts.title || canonical,
            description: facts.description,
            bodyText: facts.bodyText,
            publishedAt,
            etag: own ? (answer.etag ?? null) : null,
            lastModified: own ? (answer.lastModified ?? null) : null,
          },
        ],
        now(),
      );
      outcome.stored += 1;
      return nofollow ? undefined : facts;
    }

    const retryQueue: Candidate[] = [];

    try {
      // The start page: a page of the site itself, and where its feeds are named.
      const start = pageKey(site)!;
      const startFacts = await crawlPage({ key: start, lastmod: null, feedDate: null });
      for (const link of startFacts?.links ?? []) discovered.push(link);

      // Sitemaps: those robots.txt names on this origin, else the usual places.
      const listed = robots.sitemaps.filter((s) => {
        try {
          return new URL(s).origin === origin;
        } catch {
          return false;
        }
      });
      const sitemapQueue =
        listed.length > 0
          ? listed
          : [`${site}sitemap.xml`, `${origin}/sitemap.xml`, `${origin}/sitemap_index.xml`];
      const maxSitemapBytes = options.maxSitemapBytes ?? MAX_SITEMAP_BYTES;
      await readSitemaps({
        roots: sitemapQueue,
        origin,
        site,
        maxBytes: maxSitemapBytes,
        now: now().getTime(),
        fetch: async (url, onData) => {
          try {
            const answer = await get(url, maxSitemapBytes, 'application/xml, text/xml;q=0.9, */*;q=0.5', {
              onData,
            });
            return answer.status === 'ok';
          } catch (err) {
            if (err instanceof HttpFetchError && err.httpStatus === 404) return false;
            throw err;
          }
        },
        allows: (url) => robots.allows(url),
        couldTake: (lastmod) => candidateSet.couldTake(lastmod),
        onPage: (entry) => addCandidate(entry.loc, { lastmod: entry.lastmod }),
        onError: (url, err) => {
          if (signal.aborted) throw err;
          if (err instanceof Declined) return;
          problems.push(`sitemap ${describeUrl(url)}: ${reasonOf(err)}`);
        },
        signal,
      });

      // Feeds the start page names, on this origin.
      for (const feed of (startFacts?.feeds ?? [])
        .filter((f) => new URL(f).origin === origin)
        .slice(0, MAX_FEEDS)) {
        if (signal.aborted) break;
        try {
          const answer = await get(
            feed,
            MAX_SITEMAP_BYTES,
            'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.5',
          );
          if (answer.status !== 'ok') continue;
          const items = await feedParser.parse(
            { body: answer.body, contentType: answer.contentType },
            { baseUrl: answer.finalUrl },
            signal,
          );
          for (const item of items) addCandidate(item.url, { feedDate: item.publishedAt });
        } catch (err) {
          if (signal.aborted) throw err;
          if (err instanceof Declined) continue;
          problems.push(`feed ${describeUrl(feed)}: ${reasonOf(err)}`);
        }
      }
      for (const link of discovered) addCandidate(link);

      // The frontier, in the candidates' order; links of pages read this round go between.
      const candidates = new Map<string, Candidate>();
      const tiers: Record<Tier, Candidate[]> = { changed: [], fresh: [], revisit: [], unchanged: [] };
      for (const { candidate, tier } of candidateSet.ordered()) {
        candidates.set(candidate.key, candidate);
        if (!visited.has(candidate.key)) tiers[tier].push(candidate);
      }
      const { revisit } = tiers;
      const linksFound: Candidate[] = [];
      const queues = [retryQueue, tiers.changed, tiers.fresh, linksFound, revisit, tiers.unchanged];

      while (fetched < options.maxPagesPerRound && !signal.aborted) {
        const next = queues.find((q) => q.length > 0)?.shift();
        if (!next) break;
        if (visited.has(next.key)) continue;
        const facts = await crawlPage(next);
        // Links of pages read this round: new pages first, known ones with the revisits.
        for (const link of facts?.links ?? []) {
          const page = pageKey(link);
          if (!page || !isUnderSite(page, site) || visited.has(page) || candidates.has(page)) continue;
          const c: Candidate = { key: page, lastmod: null, feedDate: null };
          candidates.set(page, c);
          (stored.has(page) ? revisit : linksFound).push(c);
        }
      }
    } catch (err) {
      if (signal.aborted) return outcome;
      if (!(err instanceof RoundStopped)) throw err;
      outcome.error = err.message;
    }
    if (signal.aborted) return outcome;
    await finish();
    return outcome;

    async function finish() {
      if (!outcome.error && problems.length > 0) {
        const pages = outcome.failed === 1 ? '1 page' : `${outcome.failed} pages`;
        const lead = outcome.failed > 0 ? `${pages} could not be read` : 'some documents could not be read';
        outcome.error = `${lead}: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}`;
      } else if (outcome.error && problems.length > 0) {
        outcome.error = `${outcome.error}; before that: ${problems.slice(0, 2).join('; ')}`;
      }
      await recordCrawl(db, key, {
        startedAt,
        finishedAt: now(),
        error: outcome.error,
        pages: outcome.stored,
      });
      log.info(
        {
          competitor: key,
          stored: outcome.stored,
          unchanged: outcome.unchanged,
          skipped: outcome.skipped,
          failed: outcome.failed,
          error: outcome.error,
        },
        'competitor site crawled',
      );
    }
  }

  return {
    async crawl({ keys, signal = NEVER } = {}) {
      const list = options.competitors.filter((c) => !keys || keys.includes(c.key));
      const queue = [...list];
      const outcomes: CrawlOutcome[] = [];
      const startedAt = now().getTime();
      await Promise.all(
        Array.from({ length: Math.min(options.concurrency ?? 3, queue.length) }, async () => {
          for (let c = queue.shift(); c && !signal.aborted; c = queue.shift()) {
            try {
              outcomes.push(await crawlCompetitor(c, signal));
            } catch (err) {
              if (signal.aborted) break;
              // A database error carries values: its words go to the log, plain words to the row.
              log.error({ err, competitor: c.key }, 'competitor crawl failed');
              const error = 'GEM could not crawl or store this site (see the server log)';
              outcomes.push({ key: c.key, stored: 0, unchanged: 0, skipped: 0, failed: 0, error });
              await recordCrawl(db, c.key, {
                startedAt: new Date(startedAt),
                finishedAt: now(),
                error,
                pages: 0,
              }).catch((dbErr: unknown) =>
                log.error({ err: dbErr, competitor: c.key }, 'could not record a crawl failure'),
              );
            }
          }
        }),
      );
      const sum = (f: (o: CrawlOutcome) => number) => outcomes.reduce((n, o) => n + f(o), 0);
      log.info(
        {
          competitors: outcomes.length,
          stored: sum((o) => o.stored),
          unchanged: sum((o) => o.unchanged),
          skipped: sum((o) => o.skipped),
          failed: sum((o) => o.failed),
          withErrors: outcomes.filter((o) => o.error).map((o) => o.key),
          ms: now().getTime() - startedAt,
        },
        signal.aborted ? 'competitor crawl round cut short' : 'competitor crawl round finished',
      );
      return outcomes;
    },
    async close() {
      await Promise.all([pageParser.close(), feedParser.close()]);
    },
  };
}

/**
 * Registers the crawl round with the scheduler: at an instance's start when due, then every
 * `crawlMinutes`, on one instance at a time (the lease in scheduled_tasks). The command line
 * registers it too, for `keys` only, and runs it at once through the same lease, so it never
 * crawls beside a server's round.
 */
export function scheduleCompetitorCrawl(
  scheduler: Scheduler,
  crawler: CompetitorCrawler,
  crawlMinutes: number,
  { keys, onRound }: { keys?: readonly string[]; onRound?: (outcomes: CrawlOutcome[]) => void } = {},
): void {
  scheduler.every({
    name: COMPETITOR_CRAWL_TASK,
    intervalMs: crawlMinutes * 60_000,
    leaseMs: LEASE_MS,
    run: async (signal) => {
      const outcomes = await crawler.crawl({ keys, signal });
      onRound?.(outcomes);
    },
  });
}
