import type { CompetitorSearchItem, WeeklyCount } from '@gem/contracts/competitor-search';
import { and, desc, gte, inArray, sql, type SQL } from 'drizzle-orm';
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
 */

/** How much of a page's text a snippet is looked for in. */
const SNIPPET_SOURCE_MAX = 20_000;
/** ts_rank_cd's weights for D, C (main text), B (description), A (title). */
const RANK_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';

export function createIndexSearch({ db }: { db: Db }): WebSearch {
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
      const order: SQL[] =
        request.sort === 'relevance'
          ? [
              sql`ts_rank_cd(${RANK_WEIGHTS}::float4[], ${pages.searchVector}, ${query}) desc`,
              sql`${pages.publishedAt} desc nulls last`,
              desc(pages.id),
            ]
          : [sql`${pages.publishedAt} desc nulls last`, desc(pages.id)];

      const rowsQuery = db
        .select({
          competitorKey: pages.competitorKey,
          url: pages.url,
          title: pages.title,
          description: pages.description,
          body: sql<string>`left(${pages.bodyText}, ${SNIPPET_SOURCE_MAX})`,
          publishedAt: pages.publishedAt,
          sample: pages.sample,
        })
        .from(pages)
        .where(where)
        .orderBy(...order)
        .limit(request.num)
        .offset(request.start - 1);

      const firstPage = request.start === 1;
      const week = sql<
        string | null
      >`to_char(date_trunc('week', ${pages.publishedAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
      const countsQuery = firstPage
        ? db
            .select({ competitorKey: pages.competitorKey, week, count: sql<number>`count(*)::int` })
            .from(pages)
            .where(where)
            .groupBy(pages.competitorKey, week)
        : db
            .select({
              competitorKey: pages.competitorKey,
              week: sql<string | null>`null`,
              count: sql<number>`count(*)::int`,
            })
            .from(pages)
            .where(where)
            .groupBy(pages.competitorKey);

      const [rows, counts] = await Promise.all([rowsQuery, countsQuery]);
      const totalResults = counts.reduce((sum, c) => sum + Number(c.count), 0);
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
      const weeklyCounts: WeeklyCount[] | undefined = firstPage
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
        nextStart: items.length > 0 && next <= totalResults ? next : null,
        ...(weeklyCounts ? { weeklyCounts } : {}),
      };
    },
  };
}
