/**
 * The pages a round may fetch, as sitemaps, feeds and the start page name them: a bounded set
 * that keeps the best `cap` in the frontier's own order and forgets the rest as it goes, so a
 * site that lists millions of URLs costs no more memory than one that lists `cap` (issue 25).
 *
 * The order, best first (decision 015, "What a round reads"):
 * - changed: dated (sitemap lastmod, else feed date) after the last round and after the stored
 *   copy, newest first;
 * - fresh: new to the index, newest first, undated ones in the order they were found;
 * - revisit: stored, and nothing says they are unchanged, least recently fetched first;
 * - unchanged: stored, and their lastmod is not after the stored copy, least recently fetched first.
 */

export type Candidate = {
  key: string;
  lastmod: Date | null;
  feedDate: Date | null;
  /** Asked again after a 429 / 503 with Retry-After. */
  retried?: boolean;
};

export type Tier = 'changed' | 'fresh' | 'revisit' | 'unchanged';

const TIER_ORDER: Record<Tier, number> = { changed: 3, fresh: 2, revisit: 1, unchanged: 0 };
/** The earliest time a Date can hold: an undated page comes after every dated one. */
const UNDATED = -8.64e15;

/** Where a candidate stands: higher tier first, then higher value, then found earlier. */
type Rank = { tier: Tier; value: number; seq: number };
type Kept = Candidate & { rank: Rank };

export type CandidateSet = {
  /** Offers a page (a key from pageKey); a page already kept gets the dates it lacked. */
  offer(key: string, dates: { lastmod?: Date | null; feedDate?: Date | null }): void;
  /**
   * Whether a sitemap whose entries are dated at most `lastmod` could still add a page: the set
   * has room, or such an entry would rank above the worst kept one. Without a date (a sitemap
   * robots.txt names, an index entry without lastmod), only while the set has room or holds pages
   * GEM already has: once it is full of pages new or changed, more undated ones would not rank
   * above them, and the round has several times the pages it may fetch.
   */
  couldTake(lastmod: Date | null): boolean;
  /** The kept pages, best first, each with its tier. */
  ordered(): { candidate: Candidate; tier: Tier }[];
};

const compare = (a: Rank, b: Rank) =>
  TIER_ORDER[a.tier] - TIER_ORDER[b.tier] || a.value - b.value || b.seq - a.seq;

export function createCandidateSet(options: {
  cap: number;
  /** When the competitor's last round started; null before the first. */
  since: Date | null;
  /** The competitor's stored pages by URL. */
  stored: ReadonlyMap<string, { fetchedAt: Date }>;
  /** Whether the round may fetch the page at all (robots.txt): others never take a place. */
  admits: (key: string) => boolean;
}): CandidateSet {
  const { cap, since, stored } = options;
  const byKey = new Map<string, Kept>();
  let items: Kept[] = [];
  /** The worst kept rank when the set was last trimmed to `cap`: nothing at or below it gets in. */
  let floor: Rank | undefined;
  let seq = 0;

  function rankOf(c: Candidate, at: number): Rank {
    const prior = stored.get(c.key);
    const date = c.lastmod ?? c.feedDate;
    if (date && (!since || date > since) && (!prior || date > prior.fetchedAt))
      return { tier: 'changed', value: date.getTime(), seq: at };
    if (!prior) return { tier: 'fresh', value: date?.getTime() ?? UNDATED, seq: at };
    const tier = c.lastmod && c.lastmod <= prior.fetchedAt ? 'unchanged' : 'revisit';
    return { tier, value: -prior.fetchedAt.getTime(), seq: at };
  }

  /** Keeps the best `cap` (sorting at most twice that many, so an offer costs O(log cap) on average). */
  function trim() {
    items.sort((a, b) => compare(b.rank, a.rank));
    if (items.length < cap) return;
    for (const gone of items.slice(cap)) byKey.delete(gone.key);
    items = items.slice(0, cap);
    floor = { ...items[cap - 1]!.rank };
  }

  return {
    offer(key, { lastmod = null, feedDate = null }) {
      const known = byKey.get(key);
      if (known) {
        known.lastmod ??= lastmod;
        known.feedDate ??= feedDate;
        known.rank = rankOf(known, known.rank.seq);
        return;
      }
      const candidate: Candidate = { key, lastmod, feedDate };
      const rank = rankOf(candidate, seq);
      if (floor && compare(rank, floor) <= 0) return;
      if (!options.admits(key)) return;
      seq += 1;
      const kept: Kept = { ...candidate, rank };
      items.push(kept);
      byKey.set(key, kept);
      if (items.length >= 2 * cap) trim();
    },
    couldTake(lastmod) {
      trim();
      if (items.length < cap) return true;
      const worst = items[cap - 1]!.rank;
      const best: Rank =
        lastmod === null
          ? { tier: 'fresh', value: UNDATED, seq: Infinity }
          : {
              tier: !since || lastmod > since ? 'changed' : 'fresh',
              value: lastmod.getTime(),
              seq: Infinity,
            };
      return compare(best, worst) > 0;
    },
    ordered() {
      trim();
      return items.map(({ rank, ...candidate }) => ({ candidate, tier: rank.tier }));
    },
  };
}
