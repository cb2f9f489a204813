import type { FastifyBaseLogger } from 'fastify';
import type { Competitor } from '../../../config/competitors';
import type { Db } from '../../../db/client';
import { createFeedParser } from '../../../integrations/feeds/feed-parser';
import { addressPolicy, type AddressPolicy } from '../../../integrations/http/address-policy';
import type { Scheduler } from '../../../lib/scheduler';
import { recordCrawl } from '../competitor-index';
import { crawlSite } from './crawl-site';
import { createPageParser } from './page-parser';
import { createHostGate, realSleep, type Sleep } from './politeness';
import type { CrawlOutcome, CrawlTools } from './site-round';

export type { CrawlOutcome } from './site-round';

/**
 * The competitor crawler (issue 13). A round reads, for each competitor, robots.txt, the
 * sitemaps it names (or the usual ones: indexes and gzipped files too; read as they arrive,
 * sitemaps.ts), the feeds the site's start page links to (discovery.ts), and then the pages under
 * the competitor's site path, newest changes first, up to a cap per round, out of a few times that
 * many candidates (candidates.ts, crawl-site.ts). Each page goes through the SSRF-safe fetch
 * (every hop's address checked) with a conditional GET when the index has its validators, waits
 * its turn for the host (site-fetch.ts, politeness.ts), is parsed on a worker thread
 * (page-parser.ts) and stored under its canonical URL in the competitor index (fetch-page.ts).
 * The round is a scheduler task, so one instance crawls at a time.
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
/** A sitemap's size cap, and a feed's. */
export const MAX_SITEMAP_BYTES = 20 * 1024 * 1024;
const NEVER = new AbortController().signal;
/** A competitor's round that failed outside the site (a database error, say), in words for people. */
const CRAWL_FAILED = 'GEM could not crawl or store this site (see the server log)';

function crawlToolsOf(options: CrawlerOptions): CrawlTools {
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? realSleep;
  return {
    db: options.db,
    log: options.log,
    now,
    gate: createHostGate({ now: () => now().getTime(), sleep }),
    isPermittedAddress: options.isPermittedAddress ?? addressPolicy(options.allowPrivateHosts),
    timeoutMs: options.timeoutMs ?? CRAWL_TIMEOUT_MS,
    delayMs: options.delayMs,
    maxPagesPerRound: options.maxPagesPerRound,
    maxPageBytes: options.maxPageBytes ?? MAX_PAGE_BYTES,
    maxSitemapBytes: options.maxSitemapBytes ?? MAX_SITEMAP_BYTES,
    maxFeedBytes: MAX_SITEMAP_BYTES,
    pageParser: createPageParser({ budgetMs: options.parseBudgetMs }),
    feedParser: createFeedParser({ budgetMs: options.parseBudgetMs }),
  };
}

/** The round's totals in one log line. */
function logRound(tools: CrawlTools, outcomes: CrawlOutcome[], startedAt: number, cutShort: boolean) {
  const sum = (f: (o: CrawlOutcome) => number) => outcomes.reduce((n, o) => n + f(o), 0);
  tools.log.info(
    {
      competitors: outcomes.length,
      stored: sum((o) => o.stored),
      unchanged: sum((o) => o.unchanged),
      skipped: sum((o) => o.skipped),
      failed: sum((o) => o.failed),
      withErrors: outcomes.filter((o) => o.error).map((o) => o.key),
      ms: tools.now().getTime() - startedAt,
    },
    cutShort ? 'competitor crawl round cut short' : 'competitor crawl round finished',
  );
}

export function createCompetitorCrawler(options: CrawlerOptions): CompetitorCrawler {
  const tools = crawlToolsOf(options);
  const { db, log, now } = tools;

  /** A failed competitor's round: plain words on its row (a database error's words carry values). */
  const recordFailure = (key: string, startedAt: number) =>
    recordCrawl(db, key, {
      startedAt: new Date(startedAt),
      finishedAt: now(),
      error: CRAWL_FAILED,
      pages: 0,
    }).catch((dbErr: unknown) =>
      log.error({ err: dbErr, competitor: key }, 'could not record a crawl failure'),
    );

  return {
    async crawl({ keys, signal = NEVER } = {}) {
      const queue = options.competitors.filter((c) => !keys || keys.includes(c.key));
      const outcomes: CrawlOutcome[] = [];
      const startedAt = now().getTime();
      const worker = async () => {
        for (let c = queue.shift(); c && !signal.aborted; c = queue.shift()) {
          try {
            outcomes.push(await crawlSite(tools, c, signal));
          } catch (err) {
            if (signal.aborted) break;
            log.error({ err, competitor: c.key }, 'competitor crawl failed');
            outcomes.push({
              key: c.key,
              stored: 0,
              unchanged: 0,
              skipped: 0,
              failed: 0,
              error: CRAWL_FAILED,
            });
            await recordFailure(c.key, startedAt);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 3, queue.length) }, worker));
      logRound(tools, outcomes, startedAt, signal.aborted);
      return outcomes;
    },
    async close() {
      await Promise.all([tools.pageParser.close(), tools.feedParser.close()]);
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
