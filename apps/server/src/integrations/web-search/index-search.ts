import type { CompetitorSearchItem, WeeklyCount } from '@gem/contracts/competitor-search';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { webQueryMarker, webTsquery } from '../../lib/search-text';
import { buildSnippet, snippetText } from './snippet';
import {
  displayLinkOf,
  type WebSearch,
  type WebSearchCountRequest,
  type WebSearchPage,
  type WebSearchRequest,
  type WeeklyCountsAnswer,
} from './web-search';

/**
 * GEM's own index (issue 13), the default WebSearch: PostgreSQL full-text search over
 * competitor_page_terms (GIN on search_vector; a narrow copy of each page's competitor, date and
 * vector, kept by triggers on competitor_pages), filtered by competitor and date window, ordered by
 * date (newest first, undated last) or by rank (ts_rank_cd with the title above the description
 * above the text), then date. One statement per search (searchStatement): the count, the weekly
 * counts (first page) and the page; a query of more than one word first has its prefixes turned
 * into the lexemes they stand for (expandPrefixes), a second, small statement.
 *
 * What keeps a search that matches most of the index fast (bench/competitor-search.md): the count
 * stops at COUNT_CAP matches ("1,000+"), so PostgreSQL reads and checks about a thousand rows
 * (in table order for a common word, through the GIN index for a rarer one; within a date window,
 * the window newest first when its newest rows say the query is common there), never all of them;
 * the weekly counts come from the same statement and are left out when the count stopped (they
 * would count an arbitrary part of the matches); and relevance ranks only the newest RANK_CAP
 * matches. The matching, counting, sorting and ranking read competitor_page_terms, whose rows
 * hold the vector inline (checking one reads no TOAST), and carry ids and dates only; the texts
 * are read from competitor_pages for the page's rows alone.
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
/**
 * A prefix in the query ('podatk':*) that stands for at most this many lexemes of the index is
 * searched as those lexemes ('podatki' | 'podatkowy'); one that stands for more stays a prefix.
 */
export const PREFIX_FORMS_MAX = 32;
/** How many of a window's newest rows tell how common a query is in it (searchStatement). */
const PROBE_ROWS = 50;
/** A window is walked when at least 1 in this many of its newest rows match. */
const WALK_SHARE = 3;

type ItemRow = [
  competitorKey: string,
  url: string,
  title: string,
  description: string,
  body: string,
  publishedAtMs: number | null,
  sample: boolean,
];
type WeekRow = [competitorKey: string, weekStart: string | null, count: number];
type SearchRow = { total: number; weeks: WeekRow[] | string | null; items: ItemRow[] | string | null };

/** node-postgres parses json columns; a driver that hands back the text gets it parsed here. */
const json = <T>(value: T[] | string | null): T[] =>
  typeof value === 'string' ? (JSON.parse(value) as T[]) : (value ?? []);

/** The weekly counts of weeklyOf, dated weeks only, oldest first (competitors by key within a week). */
const weeklyCountsOf = (weeks: WeekRow[] | string | null): WeeklyCount[] =>
  json(weeks)
    .filter((c): c is [string, string, number] => c[1] !== null)
    .map(([competitorKey, weekStart, count]) => ({ weekStart, competitorKey, count: Number(count) }))
    .sort((a, b) =>
      a.weekStart === b.weekStart
        ? a.competitorKey.localeCompare(b.competitorKey)
        : a.weekStart.localeCompare(b.weekStart),
    );

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
  // One word needs no second statement: its prefix's matches are what the scan reads anyway.
  const matchQueryOf = async (tsquery: string) =>
    ONE_PREFIX.test(tsquery)
      ? null
      : (await rowsOf<{ query: string }>(db, expandPrefixes(tsquery)))[0]!.query;

  return {
    provider: 'index',
    async search(request: WebSearchRequest): Promise<WebSearchPage> {
      const tsquery = webTsquery(request.query);
      if (!tsquery || request.competitors.length === 0)
        return { items: [], totalResults: 0, nextStart: null };
      const firstPage = request.start === 1;
      const rows = await rowsOf<SearchRow>(
        db,
        searchStatement(
          filtersOf({
            tsquery,
            matchQuery: await matchQueryOf(tsquery),
            competitorKeys: request.competitors.map((c) => c.key),
            since: request.since,
          }),
          {
            relevance: request.sort === 'relevance',
            limit: request.num,
            offset: request.start - 1,
            weeks: firstPage,
            countCap,
            rankCap,
          },
        ),
      );
      const row = rows[0]!;
      const counted = Number(row.total);
      const capped = counted > countCap;
      const totalResults = capped ? countCap : counted;
      const marks = webQueryMarker(request.query);
      const items: CompetitorSearchItem[] = json(row.items).map(
        ([competitorKey, url, title, description, body, publishedAtMs, sample]) => {
          const snippetParts = buildSnippet([description, body], marks);
          return {
            title,
            displayLink: displayLinkOf(url),
            snippet: snippetText(snippetParts),
            link: url,
            snippetParts,
            publishedAt: publishedAtMs === null ? null : new Date(Number(publishedAtMs)).toISOString(),
            competitorKey,
            sample,
          };
        },
      );
      const next = request.start + items.length;
      const last = request.sort === 'relevance' ? Math.min(totalResults, rankCap) : totalResults;
      const weeklyCounts: WeeklyCount[] | undefined =
        firstPage && !capped ? weeklyCountsOf(row.weeks) : undefined;
      return {
        items,
        totalResults,
        ...(capped ? { totalCapped: true } : {}),
        nextStart: items.length > 0 && next <= last ? next : null,
        ...(weeklyCounts ? { weeklyCounts } : {}),
      };
    },

    /** Every match, no cap: as many rows checked as there are matches (or rows in the window). */
    async countWeekly(request: WebSearchCountRequest): Promise<WeeklyCountsAnswer> {
      const tsquery = webTsquery(request.query);
      if (!tsquery || request.competitors.length === 0) return { total: 0, weeklyCounts: [] };
      const filters = filtersOf({
        tsquery,
        matchQuery: await matchQueryOf(tsquery),
        competitorKeys: request.competitors.map((c) => c.key),
        since: request.since,
      });
      const rows = await rowsOf<{ total: number; weeks: WeekRow[] | string | null }>(
        db,
        sql`
        with ${matchingOf(filters, null)}
        select (select count(*)::int from matching) as total, (${weeklyOf()}) as weeks`,
      );
      const row = rows[0]!;
      return { total: Number(row.total), weeklyCounts: weeklyCountsOf(row.weeks) };
    },
  };
}

type Filters = {
  /** `to_tsquery('english', …)` of the query as typed (ranking). */
  query: SQL;
  /** What a page must match: the query with its prefixes as lexemes, a constant for the planner. */
  match: SQL;
  competitorIn: SQL;
  /** The window's start (`published_at >= since`), or null for no window. */
  since: SQL | null;
  /** All three, for the planner (`@@`, so the GIN index can serve it). */
  where: SQL;
  /** The competitors' keys as an array, for competitor_walk. */
  walkKeys: SQL;
};

function filtersOf(o: {
  tsquery: string;
  /** The query with its prefixes as lexemes (expandPrefixes), or null to match tsquery as it is. */
  matchQuery: string | null;
  competitorKeys: string[];
  since: Date | null;
}): Filters {
  const query = sql`to_tsquery('english', ${o.tsquery})`;
  // A constant (the planner sees which words, so which plan); ranking keeps the query as typed.
  const match = o.matchQuery === null ? query : sql`${o.matchQuery}::tsquery`;
  const keys = sql.join(
    o.competitorKeys.map((k) => sql`${k}`),
    sql`, `,
  );
  const competitorIn = sql`competitor_key in (${keys})`;
  const since = o.since ? sql`${o.since.toISOString()}::timestamptz` : null;
  const where = sql.join(
    [sql`search_vector @@ ${match}`, competitorIn, ...(since ? [sql`published_at >= ${since}`] : [])],
    sql` and `,
  );
  const walkKeys = sql`array[${keys}]::text[]`;
  return { query, match, competitorIn, since, where, walkKeys };
}

/** The date indexes' own order: the probe reads a window's newest rows in it. */
const NEWEST_FIRST = sql.raw('published_at desc nulls last');

/**
 * The CTE `matching`: id, competitor_key and published_at of up to `limit` matches (null: all).
 * Within a window, its newest PROBE_ROWS rows tell how common the query is there (`probe`). When
 * a third or more match, the window is walked (competitor_walk, migration 0011): its newest
 * `limit` matches, each row checked in the date index's order, stopping at the limit; `matching`
 * then holds the newest matches, so a page within them comes from it even when the count
 * stopped. Else the planner chooses, the GIN index as a rule, and `matching` is in no order.
 * Left to itself, PostgreSQL can estimate a prefix far too rare; the GIN index then reads every
 * match in the whole index (40,000 for a prefix in 85% of the pages: 20 ms) to keep the thousand
 * it needs, where the walk checks about 1,200 rows (bench/competitor-search.md).
 */
function matchingOf({ where, match, competitorIn, since, walkKeys }: Filters, limit: number | null): SQL {
  const planned = sql`select id, competitor_key, published_at from competitor_page_terms where ${where}
    limit ${limit}`;
  if (!since) return sql`matching as materialized (${planned})`;
  const walked = sql`select id, competitor_key, published_at
    from competitor_walk(${match}, ${walkKeys}, ${since}, ${limit}::integer)`;
  return sql`probe as materialized (
    select count(*) filter (where ts_match_vq(search_vector, ${match})) * ${WALK_SHARE} >= count(*)
      as walk
    from (
      select search_vector from competitor_page_terms where ${competitorIn} and published_at >= ${since}
      order by ${NEWEST_FIRST} limit ${PROBE_ROWS}
    ) newest
  ),
  matching as materialized (
    select * from (${walked}) w where (select walk from probe)
    union all
    select * from (${planned}) p where not (select walk from probe)
  )`;
}

/** `matching` counted per competitor and week (the week's Monday, UTC), as JSON rows of WeekRow. */
const weeklyOf = () => sql`
  select json_agg(json_build_array(competitor_key, to_char(week, 'YYYY-MM-DD'), n)) from (
    select competitor_key, date_trunc('week', published_at at time zone 'UTC') as week, count(*)::int as n
    from matching group by 1, 2
  ) w`;

/**
 * The one statement of a search: it counts the matches (at most countCap + 1: `matching`) and,
 * from the same rows, the weekly counts (first page, when every match was counted) and the page.
 * The page comes from `matching` when it holds every match or, by date, the newest ones (a
 * walk); else from the table itself (the `published_at` index newest first for a common word;
 * relevance: the newest rankCap matches, ranked). CTEs
 * run when first read, so the branch not taken costs nothing. Every step reads
 * competitor_page_terms and keeps ids and dates only; the ten rows' texts are read last, from
 * competitor_pages by id (reading them for every candidate before the
 * sort cost more than the search: bench/competitor-search.md). On the GIN path `matching` is in
 * no order: taking the newest matches there instead cost more than it saved for a word in a
 * third of the pages.
 */
function searchStatement(
  filters: Filters,
  o: {
    relevance: boolean;
    limit: number;
    offset: number;
    weeks: boolean;
    countCap: number;
    rankCap: number;
  },
): SQL {
  const { query, where } = filters;
  // The page comes from `matching` when it holds every match or, by date, the newest ones (a
  // walk: as many as the count and the page need). Ranking the newest matches reads their
  // vectors in the date index's order (ranked_table): looking the walk's up by id cost more.
  const fromMatching =
    filters.since && !o.relevance
      ? sql`(counted.total <= ${o.countCap} or (select walk from probe))`
      : sql`counted.total <= ${o.countCap}`;
  const byDate = sql.raw('published_at desc nulls last, id desc');
  const limit = sql`limit ${o.limit} offset ${o.offset}`;
  const rank = (vector: SQL) => sql`ts_rank_cd(${RANK_WEIGHTS}::float4[], ${vector}, ${query})`;
  // The page's ids in order (`k`: id, published_at, and rank by relevance), from `matching` or
  // from the table.
  const pageOf = (source: 'matching' | 'table') => {
    if (!o.relevance) {
      return source === 'matching'
        ? sql`select id, published_at, 0::float4 as rank from matching order by ${byDate} ${limit}`
        : sql`select id, published_at, 0::float4 as rank from competitor_page_terms where ${where} order by ${byDate} ${limit}`;
    }
    const ranked = source === 'matching' ? sql.raw('ranked_matching') : sql.raw('ranked_table');
    return sql`select id, published_at, rank from ${ranked} order by rank desc, ${byDate} ${limit}`;
  };
  const itemsOf = (source: 'matching' | 'table') => sql`(
    select json_agg(json_build_array(p.competitor_key, p.url, p.title, p.description,
        left(p.body_text, ${SNIPPET_SOURCE_MAX}),
        floor(extract(epoch from p.published_at) * 1000), p.sample)
      order by k.rank desc, k.published_at desc nulls last, k.id desc)
    from (${pageOf(source)}) k join competitor_pages p on p.id = k.id)`;
  return sql`
    with ${matchingOf(filters, Math.max(o.countCap + 1, o.offset + o.limit))},
    counted as materialized (select count(*)::int as total from matching)${
      o.relevance
        ? sql`,
    ranked_matching as materialized (
      select r.id, r.published_at, ${rank(sql`p.search_vector`)} as rank
      from (select id, published_at from matching order by ${byDate} limit ${o.rankCap}) r
      join competitor_page_terms p on p.id = r.id
    ),
    ranked_table as materialized (
      select id, published_at, ${rank(sql`search_vector`)} as rank
      from competitor_page_terms where ${where} order by ${byDate} limit ${o.rankCap}
    )`
        : sql``
    }
    select counted.total,
      ${o.weeks ? sql`case when counted.total <= ${o.countCap} then (${weeklyOf()}) end` : sql`null`} as weeks,
      case when ${fromMatching} then ${itemsOf('matching')} else ${itemsOf('table')} end as items
    from counted`;
}

/** A query of one word (search-text.ts's webTsquery). */
const ONE_PREFIX = /^[a-z0-9]+:\*$/;

/** One operand of a tsquery's text: `'lexeme':*` (group 2: the lexeme, escaped), `'lexeme'`, or what is between. */
const TSQUERY_TOKEN = String.raw`('((?:[^']|'')*)':\*(?![A-D])|'(?:[^']|'')*'|[^']+)`;

/**
 * The text of `to_tsquery('english', tsquery)` with each prefix replaced by the lexemes of the
 * index it stands for (competitor_lexemes), when there are 1 to PREFIX_FORMS_MAX of them: the
 * same matches, but the GIN index then walks those lexemes' posting lists in step (skipping
 * through an excluded word's list) instead of first reading every match of every prefix into a
 * bitmap, which cost `podatek OR energii -rynek` 20 of its 21 ms (bench/competitor-search.md).
 * A prefix with no lexeme, or with more than PREFIX_FORMS_MAX, stays as it was. A separate
 * statement, so that the search's own statement has the result as a constant for the planner
 * (a page stored between the two with a form no page had before is found by the next search).
 * Prefixes are the stems of [a-z0-9] words (search-text.ts), so raising the last character
 * gives the end of the btree range; the `^@` keeps the result exact whatever it is.
 */
function expandPrefixes(tsquery: string): SQL {
  const quoted = sql.raw(String.raw`'''' || replace(replace(l.lexeme, '\', '\\'), '''', '''''') || ''''`);
  const unquoted = sql.raw(String.raw`replace(replace(m.m[2], '''''', ''''), '\\', '\')`);
  return sql`
    select coalesce(string_agg(coalesce((
      select '( ' || string_agg(${quoted}, ' | ' order by l.lexeme) || ' )'
      from (
        select lexeme from competitor_lexemes
        where lexeme >= t.prefix and lexeme ^@ t.prefix
          and lexeme < left(t.prefix, -1) || case
            when ascii(right(t.prefix, 1)) < 127 then chr(ascii(right(t.prefix, 1)) + 1) end
        limit ${PREFIX_FORMS_MAX + 1}
      ) l
      having count(*) between 1 and ${PREFIX_FORMS_MAX}
    ), m.m[1]), '' order by m.n), '') as query
    from regexp_matches(to_tsquery('english', ${tsquery})::text, ${TSQUERY_TOKEN}, 'g')
      with ordinality as m(m, n),
      lateral (select ${unquoted} as prefix) t`;
}
