import type { CompetitorSearchItem, WeeklyCount } from '@gem/contracts/competitor-search';
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { competitorPages as pages } from '../../db/schema/competitor-search';
import { webQueryMarker, webTsquery } from '../../lib/search-text';
import { buildSnippet, snippetText } from './snippet';
import { displayLinkOf, type WebSearch, type WebSearchPage, type WebSearchRequest } from './web-search';

/**
 * GEM's own index (issue 13), the default WebSearch: PostgreSQL full-text search over
 * competitor_pages (GIN on search_vector), filtered by competitor and date window, ordered by
 * date (newest first, undated last) or by rank (ts_rank_cd with the title above the description
 * above the text), then date. One statement reads the page, one counts (per competitor and week
 * on the first page).
 *
 * What keeps a search that matches most of the index fast (bench/competitor-search.md): the count
 * stops at COUNT_CAP matches ("1,000+"), so PostgreSQL reads and checks about a thousand rows
 * (in table order for a common word, through the GIN index for a rarer one), never all of them;
 * the weekly counts come from the same statement and are left out when the count stopped (they
 * would count an arbitrary part of the matches); and relevance ranks only the newest RANK_CAP
 * matches (their ids, then reads the ten rows of the page).
 */

/** How much of a page's text a snippet is looked for in. */
const SNIPPET_SOURCE_MAX = 20_000;
/** ts_rank_cd's weights for D, C (main text), B (description), A (title). */
const RANK_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
/**
 * The most matches counted: past it the total is "1,000+" and the weekly counts are left out.
 * No page starts past COMPETITOR_START_MAX (1,000) anyway; counting every match of a common
 * word costs reading and checking every matching row (bench/competitor-search.md).
 */
export const COUNT_CAP = 1_000;
/**
 * Relevance ranks the newest this many matches (every match when there are fewer), so a common
 * word does not rank the whole index; its pages end there.
 */
export const RANK_CAP = 500;

export function createIndexSearch({
  db,
  countCap = COUNT_CAP,
  rankCap = RANK_CAP,
}: {
  db: Db;
  /** COUNT_CAP and RANK_CAP, smaller in tests. */
  countCap?: number;
  rankCap?: number;
}): WebSearch {
  return {
    provider: 'index',
    async search(request: WebSearchRequest): Promise<WebSearchPage> {
      const tsquery = webTsquery(request.query);
      if (!tsquery || request.competitors.length === 0)
        return { items: [], totalResults: 0, nextStart: null };
      const query = sql`to_tsquery('english', ${tsquery})`;
      const where = and(
        sql`${pages.searchVector} @@ ${query}`,
        inArray(
          pages.competitorKey,
          request.competitors.map((c) => c.key),
        ),
        request.since ? gte(pages.publishedAt, request.since) : undefined,
      );
      const byDate = [sql`${pages.publishedAt} desc nulls last`, desc(pages.id)];
      const columns = {
        competitorKey: pages.competitorKey,
        url: pages.url,
        title: pages.title,
        description: pages.description,
        body: sql<string>`left(${pages.bodyText}, ${SNIPPET_SOURCE_MAX})`,
        publishedAt: pages.publishedAt,
        sample: pages.sample,
      };
      let rowsQuery;
      if (request.sort === 'relevance') {
        // The newest rankCap matches, ranked (their ids only: the texts of ten are read after).
        const ranked = db.$with('ranked').as(
          db
            .select({
              id: pages.id,
              rank: sql<number>`ts_rank_cd(${RANK_WEIGHTS}::float4[], ${pages.searchVector}, ${query})`.as(
                'rank',
              ),
            })
            .from(pages)
            .where(where)
            .orderBy(...byDate)
            .limit(rankCap),
        );
        rowsQuery = db
          .with(ranked)
          .select(columns)
          .from(ranked)
          .innerJoin(pages, eq(pages.id, ranked.id))
          .orderBy(desc(ranked.rank), ...byDate)
          .limit(request.num)
          .offset(request.start - 1);
      } else {
        rowsQuery = db
          .select(columns)
          .from(pages)
          .where(where)
          .orderBy(...byDate)
          .limit(request.num)
          .offset(request.start - 1);
      }

      // At most countCap + 1 matches: one more than the cap says "more than the cap".
      const firstPage = request.start === 1;
      const matching = db
        .select({
          competitorKey: pages.competitorKey,
          week: (firstPage
            ? sql<
                string | null
              >`to_char(date_trunc('week', ${pages.publishedAt} at time zone 'UTC'), 'YYYY-MM-DD')`
            : sql<string | null>`null::text`
          ).as('week'),
        })
        .from(pages)
        .where(where)
        .limit(countCap + 1)
        .as('matching');
      const countsQuery = db
        .select({
          competitorKey: matching.competitorKey,
          week: matching.week,
          count: sql<number>`count(*)::int`,
        })
        .from(matching)
        .groupBy(matching.competitorKey, matching.week);

      const [rows, counts] = await Promise.all([rowsQuery, countsQuery]);
      const counted = counts.reduce((sum, c) => sum + Number(c.count), 0);
      const capped = counted > countCap;
      const totalResults = capped ? countCap : counted;
      const marks = webQueryMarker(request.query);
      const items: CompetitorSearchItem[] = rows.map((row) => {
        const snippetParts = buildSnippet([row.description, row.body], marks);
        return {
          title: row.title,
          displayLink: displayLinkOf(row.url),
          snippet: snippetText(snippetParts),
          link: row.url,
          snippetParts,
          publishedAt: row.publishedAt ? row.publishedAt.toISOString() : null,
          competitorKey: row.competitorKey,
          sample: row.sample,
        };
      });
      const next = request.start + items.length;
      const last = request.sort === 'relevance' ? Math.min(totalResults, rankCap) : totalResults;
      const weeklyCounts: WeeklyCount[] | undefined =
        firstPage && !capped
          ? counts
              .filter((c): c is typeof c & { week: string } => c.week !== null)
              .map((c) => ({ weekStart: c.week, competitorKey: c.competitorKey, count: Number(c.count) }))
              .sort((a, b) =>
                a.weekStart === b.weekStart
                  ? a.competitorKey.localeCompare(b.competitorKey)
                  : a.weekStart.localeCompare(b.weekStart),
              )
          : undefined;
      return {
        items,
        totalResults,
        ...(capped ? { totalCapped: true } : {}),
        nextStart: items.length > 0 && next <= last ? next : null,
        ...(weeklyCounts ? { weeklyCounts } : {}),
      };
    },
  };
}
