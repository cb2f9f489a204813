import type { Competitor } from '../../../config/competitors';
import { recordCrawl } from '../competitor-index';
import { createCandidateSet, type Candidate, type CandidateSet, type Tier } from './candidates';
import { RoundStopped } from './crawl-errors';
import { startCrawl } from './crawl-store';
import { isUnderSite, pageKey } from './crawl-urls';
import { discoverFromFeeds, discoverFromSitemaps, readRobots, type Finds } from './discovery';
import { fetchPage } from './fetch-page';
import {
  createSiteRound,
  roundError,
  type CrawlOutcome,
  type CrawlTools,
  type SiteRound,
} from './site-round';

/**
 * One competitor's round: robots.txt, the start page, the pages sitemaps and feeds name, then the
 * frontier in the candidates' order until the round's page cap, the round recorded at the end.
 */

/**
 * Pages a round keeps in view per page it may fetch: sitemaps and feeds may name millions, and
 * the round keeps only the best of them (candidates.ts), with room for those it will skip.
 */
const CANDIDATES_PER_PAGE = 4;

export async function crawlSite(
  tools: CrawlTools,
  competitor: Competitor,
  signal: AbortSignal,
): Promise<CrawlOutcome> {
  const startedAt = tools.now();
  const { since, stored } = await startCrawl(tools.db, competitor.key, startedAt);
  const round = createSiteRound(tools, competitor, signal, stored);
  try {
    round.fetch.obey(await readRobots(round.fetch, round.origin));
    await crawlPages(round, since);
  } catch (err) {
    if (signal.aborted) return round.outcome;
    if (!(err instanceof RoundStopped)) throw err;
    round.outcome.error = err.message;
  }
  if (signal.aborted) return round.outcome;
  await finishCrawl(round, startedAt);
  return round.outcome;
}

/** The start page, discovery, and the frontier. */
async function crawlPages(round: SiteRound, since: Date | null): Promise<void> {
  // The frontier: changed since the last round first, then pages new to the index, then the
  // rest, revalidated with a conditional GET, least recently fetched first (candidates.ts).
  const candidateSet = createCandidateSet({
    cap: CANDIDATES_PER_PAGE * round.tools.maxPagesPerRound,
    since,
    stored: round.stored,
    admits: (page) => round.fetch.robots.allows(page),
  });
  const finds: Finds = {
    offer: (raw, dates = {}) => {
      const page = pageKey(raw);
      if (!page || !isUnderSite(page, round.site) || round.visited.has(page)) return;
      candidateSet.offer(page, dates);
    },
    couldTake: (lastmod) => candidateSet.couldTake(lastmod),
  };

  // The start page: a page of the site itself, and where its feeds are named.
  const startFacts = await fetchPage(round, { key: pageKey(round.site)!, lastmod: null, feedDate: null });
  await discoverFromSitemaps(round, finds);
  await discoverFromFeeds(round, startFacts?.feeds ?? [], finds);
  for (const link of startFacts?.links ?? []) finds.offer(link);
  await crawlFrontier(round, candidateSet);
}

/** Fetches the candidates in their order; links of pages read this round go between the tiers. */
async function crawlFrontier(round: SiteRound, candidateSet: CandidateSet): Promise<void> {
  const candidates = new Map<string, Candidate>();
  const tiers: Record<Tier, Candidate[]> = { changed: [], fresh: [], revisit: [], unchanged: [] };
  for (const { candidate, tier } of candidateSet.ordered()) {
    candidates.set(candidate.key, candidate);
    if (!round.visited.has(candidate.key)) tiers[tier].push(candidate);
  }
  const { revisit } = tiers;
  const linksFound: Candidate[] = [];
  const queues = [round.retryQueue, tiers.changed, tiers.fresh, linksFound, revisit, tiers.unchanged];

  while (round.fetched < round.tools.maxPagesPerRound && !round.signal.aborted) {
    const next = queues.find((q) => q.length > 0)?.shift();
    if (!next) break;
    if (round.visited.has(next.key)) continue;
    const facts = await fetchPage(round, next);
    // Links of pages read this round: new pages first, known ones with the revisits.
    for (const link of facts?.links ?? []) {
      const page = pageKey(link);
      if (!page || !isUnderSite(page, round.site) || round.visited.has(page) || candidates.has(page))
        continue;
      const c: Candidate = { key: page, lastmod: null, feedDate: null };
      candidates.set(page, c);
      (round.stored.has(page) ? revisit : linksFound).push(c);
    }
  }
}

/** Records the round's end, its pages and its error, and logs its counts. */
async function finishCrawl(round: SiteRound, startedAt: Date): Promise<void> {
  const { outcome, tools } = round;
  outcome.error = roundError(round);
  await recordCrawl(tools.db, round.key, {
    startedAt,
    finishedAt: tools.now(),
    error: outcome.error,
    pages: outcome.stored,
  });
  tools.log.info(
    {
      competitor: round.key,
      stored: outcome.stored,
      unchanged: outcome.unchanged,
      skipped: outcome.skipped,
      failed: outcome.failed,
      error: outcome.error,
    },
    'competitor site crawled',
  );
}
