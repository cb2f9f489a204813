import {
  COMPETITOR_START_MAX,
  siteSearchOf,
  type CompetitorSearchResponse,
  type CompetitorsResponse,
  type CompetitorWeeklyCountsResponse,
  type ParsedCompetitorSearchRequest,
  type ParsedCompetitorWeeklyCountsRequest,
} from '@gem/contracts/competitor-search';
import { formatCount } from '@gem/contracts/format-number';
import { sql } from 'drizzle-orm';
import type { CompetitorsConfig } from '../../config';
import type { Db } from '../../db/client';
import { competitorCrawls, competitorPages } from '../../db/schema/competitor-search';
import type { WebSearch } from '../../integrations/web-search/web-search';
import { AppError } from '../../lib/app-error';
import { parseWebQuery, webTsquery } from '../../lib/search-text';

/** Competitor search (issue 13): the spec's search call over the WebSearch port, and the competitors' status. */

const DAY = 24 * 60 * 60 * 1000;

export const NO_WORDS = 'The query has no words to search for.';
export const ONLY_EXCLUDED = 'The query only excludes words: add a word to search for.';
export const NOT_COUNTED = 'This search service cannot count its matches per week.';
export const UNKNOWN_SITE =
  'This is not one of the competitors’ sites. Choose one from the list, or none for all.';

/** A request field and what is wrong with it (beyond its schema). */
export type RequestProblem = { field: 'query' | 'siteSearch'; message: string };

/** A site as siteSearch may name it: no scheme, lower-case host, with or without the last '/'. */
const siteKey = (site: string) => {
  const bare = siteSearchOf(site.trim()).toLowerCase();
  return bare.endsWith('/') ? bare : `${bare}/`;
};

export type CompetitorSearchService = ReturnType<typeof createCompetitorSearchService>;

export function createCompetitorSearchService({
  db,
  search,
  competitors,
  now = () => new Date(),
}: {
  db: Db;
  search: WebSearch;
  competitors: CompetitorsConfig;
  now?: () => Date;
}) {
  const bySite = new Map(competitors.list.map((c) => [siteKey(c.site), c]));

  function competitorsFor(siteSearch: string | null | undefined) {
    if (!siteSearch || siteSearch.trim() === '') return competitors.list;
    const one = bySite.get(siteKey(siteSearch));
    return one ? [one] : undefined;
  }

  /** What the request's schema cannot know: words to search for, and a known site. */
  function problems(request: { query: string; siteSearch?: string | null | undefined }): RequestProblem[] {
    const found: RequestProblem[] = [];
    const query = parseWebQuery(request.query);
    if (!webTsquery(query)) {
      found.push({ field: 'query', message: query.excluded.length > 0 ? ONLY_EXCLUDED : NO_WORDS });
    }
    if (!competitorsFor(request.siteSearch)) found.push({ field: 'siteSearch', message: UNKNOWN_SITE });
    return found;
  }

  /** The window as a request names it (`d90`, `w12`): its days, and the instant it starts. */
  function windowOf(dateRestrict: string | null | undefined, at: Date) {
    const windowDays = dateRestrict
      ? Number(dateRestrict.slice(1)) * (dateRestrict[0] === 'w' ? 7 : 1)
      : null;
    return { windowDays, since: windowDays === null ? null : new Date(at.getTime() - windowDays * DAY) };
  }

  async function searchContent(
    request: ParsedCompetitorSearchRequest,
    signal?: AbortSignal,
  ): Promise<CompetitorSearchResponse> {
    const started = performance.now();
    const at = now();
    const page = await search.search(
      {
        text: request.query,
        query: parseWebQuery(request.query),
        num: request.num,
        start: request.start,
        ...windowOf(request.dateRestrict, at),
        now: at,
        sort: request.sort,
        // The routes' schema has refused an unknown site.
        competitors: competitorsFor(request.siteSearch) ?? [],
      },
      signal,
    );
    const seconds = (performance.now() - started) / 1000;
    const nextStart =
      page.nextStart !== null && page.nextStart <= COMPETITOR_START_MAX ? page.nextStart : null;
    return {
      items: page.items,
      searchInformation: {
        formattedTotalResults: `${formatCount(page.totalResults)}${page.totalCapped ? '+' : ''}`,
        formattedSearchTime: seconds.toFixed(2),
        totalResults: page.totalResults,
        ...(page.totalCapped ? { totalCapped: true } : {}),
      },
      queries: nextStart === null ? {} : { nextPage: [{ startIndex: nextStart }] },
      ...(page.weeklyCounts ? { weeklyCounts: page.weeklyCounts } : {}),
    };
  }

  /**
   * Every match of a search counted per competitor and week: the chart a first page leaves out
   * when its count stopped at the cap. GEM's own index only; it checks every match in the window.
   */
  async function weeklyCounts(
    request: ParsedCompetitorWeeklyCountsRequest,
  ): Promise<CompetitorWeeklyCountsResponse> {
    if (!search.countWeekly) throw new AppError(404, 'not_found', NOT_COUNTED);
    const at = now();
    return search.countWeekly({
      query: parseWebQuery(request.query),
      since: windowOf(request.dateRestrict, at).since,
      now: at,
      // The routes' schema has refused an unknown site.
      competitors: competitorsFor(request.siteSearch) ?? [],
    });
  }

  async function listCompetitors(): Promise<CompetitorsResponse> {
    const [counts, crawls] = await Promise.all([
      db
        .select({
          competitorKey: competitorPages.competitorKey,
          pages: sql<number>`count(*)::int`,
          real: sql<number>`count(*) filter (where not ${competitorPages.sample})::int`,
        })
        .from(competitorPages)
        .groupBy(competitorPages.competitorKey),
      db.select().from(competitorCrawls),
    ]);
    const countOf = new Map(counts.map((c) => [c.competitorKey, c]));
    const crawlOf = new Map(crawls.map((c) => [c.competitorKey, c]));
    const listed = competitors.list.map((c) => countOf.get(c.key));
    return {
      competitors: competitors.list.map((c) => {
        const crawl = crawlOf.get(c.key);
        return {
          key: c.key,
          name: c.name,
          site: c.site,
          siteSearch: siteSearchOf(c.site),
          pages: Number(countOf.get(c.key)?.pages ?? 0),
          lastCrawledAt: crawl?.lastFinishedAt ? crawl.lastFinishedAt.toISOString() : null,
          lastError: crawl?.lastError ?? null,
        };
      }),
      provider: search.provider,
      sample:
        listed.some((c) => Number(c?.pages ?? 0) > 0) && listed.every((c) => Number(c?.real ?? 0) === 0),
      crawling: competitors.crawl,
    };
  }

  /**
   * Whether a link is a page competitor search can show: one GEM has indexed (crawled, or of the
   * bundled sample corpus) or one under a competitor's configured site (a web search result).
   */
  async function isCompetitorPage(link: string): Promise<boolean> {
    const lower = link.toLowerCase();
    if (competitors.list.some((c) => lower.startsWith(c.site.toLowerCase()))) return true;
    const [row] = await db
      .select({ url: competitorPages.url })
      .from(competitorPages)
      .where(sql`${competitorPages.url} = ${link}`)
      .limit(1);
    return row !== undefined;
  }

  return { problems, search: searchContent, weeklyCounts, listCompetitors, isCompetitorPage };
}
