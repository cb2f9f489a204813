import { HttpFetchError, type FetchResult } from '../../../integrations/http/safe-fetch';
import { removeCompetitorPages, upsertCompetitorPages } from '../competitor-index';
import type { Candidate } from './candidates';
import { Declined, httpStatusOf, RoundStopped } from './crawl-errors';
import { isUnderSite, pageKey } from './crawl-urls';
import type { PageFacts } from './page-facts';
import { retryAfterMs } from './politeness';
import { CRAWLER_TOKEN } from './robots';
import { failPage, skipPage, type SiteRound } from './site-round';

/**
 * One page of a round: fetched with a conditional GET when the index has its validators, parsed
 * on the worker thread (page-parser.ts), and stored under its canonical URL, or removed from the
 * index when the site says it is gone or not to be indexed.
 */

/** The longest Retry-After GEM waits for within a round; longer, and the site waits for the next round. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;
/** Without Retry-After, a 429 means this. */
const DEFAULT_BACKOFF_MS = 30_000;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const HTML_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1';

type Answer = Extract<FetchResult, { status: 'ok' }>;

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

/** Fetches and stores one page; returns its facts when it was read and its links may be followed. */
export async function fetchPage(round: SiteRound, candidate: Candidate): Promise<PageFacts | undefined> {
  const url = candidate.key;
  round.visited.add(url);
  if (!round.fetch.robots.allows(url)) return skipPage(round);
  round.fetched += 1;
  let answer: FetchResult;
  try {
    answer = await round.fetch.get(url, round.tools.maxPageBytes, HTML_ACCEPT, {
      validators: round.stored.get(url),
    });
  } catch (err) {
    await fetchFailed(round, candidate, err);
    return undefined;
  }
  round.failuresInARow = 0;
  if (answer.status === 'not-modified') {
    round.outcome.unchanged += 1;
    return undefined;
  }
  return readPage(round, candidate, answer);
}

/** A page the site did not give: declined, gone, to be asked again later, or a failure. */
async function fetchFailed(round: SiteRound, candidate: Candidate, err: unknown): Promise<void> {
  const url = candidate.key;
  if (round.signal.aborted) throw err;
  if (err instanceof Declined) {
    skipPage(round);
    return;
  }
  const status = httpStatusOf(err);
  if (status === 404 || status === 410) {
    // Gone from the site: gone from the index.
    if (round.stored.has(url)) await removeCompetitorPages(round.tools.db, [url]);
    skipPage(round);
    round.failuresInARow = 0;
    return;
  }
  if (
    (status === 429 || status === 503) &&
    err instanceof HttpFetchError &&
    askLater(round, candidate, err)
  ) {
    return;
  }
  failPage(round, url, err);
}

/**
 * A 429 or 503: the host is left alone as long as it asks (a 429 without Retry-After, 30 s), and
 * the page goes to the retry queue once (true). A longer wait than a round waits stops the round.
 */
function askLater(round: SiteRound, candidate: Candidate, err: HttpFetchError): boolean {
  const status = err.httpStatus;
  const wait =
    retryAfterMs(err.retryAfter, round.tools.now().getTime()) ??
    (status === 429 ? DEFAULT_BACKOFF_MS : undefined);
  if (wait === undefined) return false;
  if (wait > MAX_RETRY_AFTER_MS) {
    throw new RoundStopped(
      `the site asked GEM to wait ${Math.round(wait / 1000)} s (HTTP ${status}), so it stopped crawling it this round`,
    );
  }
  round.tools.gate.holdOff(new URL(candidate.key).host, wait);
  if (candidate.retried) return false;
  round.fetched -= 1;
  round.visited.delete(candidate.key);
  round.retryQueue.push({ ...candidate, retried: true });
  return true;
}

/** A page the site gave: parsed, then stored unless it is off the site, not HTML, noindex or a duplicate. */
async function readPage(
  round: SiteRound,
  candidate: Candidate,
  answer: Answer,
): Promise<PageFacts | undefined> {
  const finalKey = pageKey(answer.finalUrl);
  if (!finalKey || !isUnderSite(finalKey, round.site)) return skipPage(round);
  round.visited.add(finalKey);
  if (!HTML_TYPES.has(mediaType(answer.contentType))) return skipPage(round);
  let facts: PageFacts;
  try {
    facts = await round.tools.pageParser.page(answer.body, answer.contentType, answer.finalUrl);
  } catch (err) {
    failPage(round, candidate.key, err);
    return undefined;
  }
  const header = headerDirectives(answer.headers);
  const noindex = facts.noindex || header.has('noindex') || header.has('none');
  const nofollow = facts.nofollow || header.has('nofollow') || header.has('none');
  const followed = nofollow ? undefined : facts;
  const canonicalKey = facts.canonical ? pageKey(facts.canonical) : undefined;
  const canonical = canonicalKey && isUnderSite(canonicalKey, round.site) ? canonicalKey : finalKey;
  if (noindex) {
    const gone = [...new Set([candidate.key, finalKey, canonical])].filter((u) => round.stored.has(u));
    if (gone.length > 0) await removeCompetitorPages(round.tools.db, gone);
    skipPage(round);
    return followed;
  }
  round.visited.add(canonical);
  if (round.seenCanonical.has(canonical)) {
    skipPage(round);
    return followed;
  }
  round.seenCanonical.add(canonical);
  await storePage(round, candidate, answer, facts, canonical);
  round.outcome.stored += 1;
  return followed;
}

/** Writes the page to the index under its canonical URL. */
async function storePage(
  round: SiteRound,
  candidate: Candidate,
  answer: Answer,
  facts: PageFacts,
  canonical: string,
): Promise<void> {
  const publishedAt = facts.publishedAt
    ? new Date(facts.publishedAt)
    : (candidate.feedDate ?? candidate.lastmod);
  // The validators belong to the URL fetched: kept only when the row is that URL.
  const own = canonical === candidate.key;
  await upsertCompetitorPages(
    round.tools.db,
    [
      {
        competitorKey: round.key,
        url: canonical,
        title: facts.title || canonical,
        description: facts.description,
        bodyText: facts.bodyText,
        publishedAt,
        etag: own ? (answer.etag ?? null) : null,
        lastModified: own ? (answer.lastModified ?? null) : null,
      },
    ],
    round.tools.now(),
  );
}
