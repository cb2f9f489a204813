import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { competitorPages } from '../../db/schema/competitor-search';
import { parseWebQuery, searchVector, webTsquery } from '../../lib/search-text';
import { COUNT_CAP, createIndexSearch, PREFIX_FORMS_MAX, RANK_CAP } from './index-search';
import { searchRequest } from './search-request.fixture';
import type { WebSearchRequest } from './web-search';

// The caps that keep a search matching most of the index fast (bench/competitor-search.md), at
// a size a test can fill: the count stops at the cap, and relevance ranks the newest matches.

let database: Database;
let config: Config;

const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

type Page = { competitorKey: string; url: string; title: string; bodyText: string; publishedAt: Date | null };

const page = (competitorKey: string, slug: string, fields: Partial<Page>): Page => {
  const site = config.competitors.list.find((c) => c.key === competitorKey)!.site;
  return {
    competitorKey,
    url: `${site}${slug}`,
    title: 'Strona',
    bodyText: '',
    publishedAt: null,
    ...fields,
  };
};

beforeAll(async () => {
  database = await createTestDatabase();
  config = testConfig();
  const [first, second] = config.competitors.list;
  const pages = [
    // Six pages about audits, one a day; the oldest has the word in its title.
    ...Array.from({ length: 5 }, (_, n) =>
      page(n % 2 === 0 ? first!.key : second!.key, `audyt-${n}`, {
        bodyText: `Audyt ${n} w firmie.`,
        publishedAt: daysAgo(n + 0.5),
      }),
    ),
    page(first!.key, 'audyt-tytul', {
      title: 'Audyt',
      bodyText: 'Audyt i audytorzy.',
      publishedAt: daysAgo(5.5),
    }),
    page(second!.key, 'inne', { bodyText: 'Nic o tym.', publishedAt: daysAgo(1) }),
  ];
  // As the index writer stores them (modules/competitor-search/competitor-index.ts).
  await database.db
    .insert(competitorPages)
    .values(pages.map((p) => ({ ...p, searchVector: searchVector({ A: p.title, B: '', C: p.bodyText }) })));
});

afterAll(async () => {
  await database?.close();
});

const request = (query: string, fields: Partial<WebSearchRequest> = {}) =>
  searchRequest(query, { num: 10, now, competitors: config.competitors.list }, fields);
const slugs = (items: { link: string }[]) => items.map((i) => i.link.split('/').pop());

it('caps at 1,000 matches counted and 500 ranked', () => {
  expect(COUNT_CAP).toBe(1_000);
  expect(RANK_CAP).toBe(500);
});

// The statement walks the matches in table order without a window, newest first within one
// (index-search.ts): both give the same pages.
describe.each([
  ['without a date window', () => ({})],
  ['within a date window that holds every page', () => ({ since: daysAgo(30) })],
])('the index search’s caps, %s', (_, window: () => Partial<WebSearchRequest>) => {
  const request = (query: string, fields: Partial<WebSearchRequest> = {}) =>
    searchRequest(query, { num: 10, now, competitors: config.competitors.list }, { ...window(), ...fields });

  it('counts every match, with the weekly counts, up to the cap', async () => {
    const search = createIndexSearch({ db: database.db, countCap: 6 });
    const result = await search.search(request('audyt'));
    expect(result.totalResults).toBe(6);
    expect(result.totalCapped).toBeUndefined();
    expect(result.weeklyCounts!.reduce((sum, w) => sum + w.count, 0)).toBe(6);
    expect(slugs(result.items)).toEqual([
      'audyt-0',
      'audyt-1',
      'audyt-2',
      'audyt-3',
      'audyt-4',
      'audyt-tytul',
    ]);
  });

  it('stops counting past the cap: the total is the cap, marked, and no weekly counts', async () => {
    const search = createIndexSearch({ db: database.db, countCap: 5 });
    const first = await search.search(request('audyt', { num: 2 }));
    expect(first.totalResults).toBe(5);
    expect(first.totalCapped).toBe(true);
    expect(first.weeklyCounts).toBeUndefined();
    expect(slugs(first.items)).toEqual(['audyt-0', 'audyt-1']);
    expect(first.nextStart).toBe(3);
    // A later page counts the same way (without weeks).
    const later = await search.search(request('audyt', { num: 2, start: 3 }));
    expect(later).toMatchObject({ totalResults: 5, totalCapped: true, nextStart: 5 });
    expect(later.weeklyCounts).toBeUndefined();
    // A page that starts at the cap and ends past it is whole.
    const past = await search.search(request('audyt', { num: 2, start: 5 }));
    expect(slugs(past.items)).toEqual(['audyt-4', 'audyt-tytul']);
    expect(past).toMatchObject({ totalResults: 5, totalCapped: true, nextStart: null });
    // So is one that starts past the cap (pages go on to COMPETITOR_START_MAX past a 1,000 count).
    const beyond = await createIndexSearch({ db: database.db, countCap: 4 }).search(
      request('audyt', { num: 2, start: 5 }),
    );
    expect(slugs(beyond.items)).toEqual(['audyt-4', 'audyt-tytul']);
    expect(beyond).toMatchObject({ totalResults: 4, totalCapped: true });
    // Within a window that holds fewer matches than the cap, everything is counted again.
    const recent = await search.search(request('audyt', { since: daysAgo(2) }));
    expect(recent.totalResults).toBe(2);
    expect(recent.totalCapped).toBeUndefined();
    expect(recent.weeklyCounts!.reduce((sum, w) => sum + w.count, 0)).toBe(2);
  });

  it('searches one competitor’s pages, up to the cap and past it', async () => {
    const first = config.competitors.list[0]!;
    const all = await createIndexSearch({ db: database.db }).search(
      request('audyt', { competitors: [first] }),
    );
    expect(slugs(all.items)).toEqual(['audyt-0', 'audyt-2', 'audyt-4', 'audyt-tytul']);
    expect(all.totalResults).toBe(4);
    const capped = await createIndexSearch({ db: database.db, countCap: 2 }).search(
      request('audyt', { competitors: [first], num: 2, start: 3 }),
    );
    expect(slugs(capped.items)).toEqual(['audyt-4', 'audyt-tytul']);
    expect(capped).toMatchObject({ totalResults: 2, totalCapped: true, nextStart: null });
  });

  it('ranks every match when they are fewer than the rank cap (the title first)', async () => {
    const search = createIndexSearch({ db: database.db });
    const result = await search.search(request('audyt', { sort: 'relevance' }));
    expect(slugs(result.items)[0]).toBe('audyt-tytul');
    expect(result.items).toHaveLength(6);
  });

  it('ranks only the newest matches past the rank cap, and pages end there', async () => {
    const search = createIndexSearch({ db: database.db, rankCap: 3 });
    const first = await search.search(request('audyt', { sort: 'relevance', num: 2 }));
    expect(first.totalResults).toBe(6);
    expect(first.nextStart).toBe(3);
    const second = await search.search(request('audyt', { sort: 'relevance', num: 2, start: 3 }));
    expect(second.nextStart).toBeNull();
    const ranked = [...slugs(first.items), ...slugs(second.items)];
    expect(ranked.sort()).toEqual(['audyt-0', 'audyt-1', 'audyt-2']);
  });

  it('ranks the newest matches past both caps too (the count stopped)', async () => {
    const search = createIndexSearch({ db: database.db, countCap: 4, rankCap: 3 });
    const first = await search.search(request('audyt', { sort: 'relevance', num: 2 }));
    expect(first).toMatchObject({ totalResults: 4, totalCapped: true, nextStart: 3 });
    expect(first.weeklyCounts).toBeUndefined();
    const second = await search.search(request('audyt', { sort: 'relevance', num: 2, start: 3 }));
    expect(second.nextStart).toBeNull();
    const ranked = [...slugs(first.items), ...slugs(second.items)];
    expect(ranked.sort()).toEqual(['audyt-0', 'audyt-1', 'audyt-2']);
    // With the titled page among the newest, it ranks first.
    const all = createIndexSearch({ db: database.db, countCap: 4, rankCap: 6 });
    const top = await all.search(request('audyt', { sort: 'relevance', num: 2 }));
    expect(slugs(top.items)[0]).toBe('audyt-tytul');
    expect(top.nextStart).toBe(3);
  });
});

describe('every match counted per competitor and week (countWeekly)', () => {
  const countRequest = (query: string, since: Date | null = null) => ({
    query: parseWebQuery(query),
    since,
    now,
    competitors: config.competitors.list,
  });
  const sum = (counts: { count: number }[]) => counts.reduce((total, c) => total + c.count, 0);

  it('counts past the search’s cap, with and without a window, walked or through the index', async () => {
    const search = createIndexSearch({ db: database.db, countCap: 2 });
    expect((await search.search(request('audyt'))).totalCapped).toBe(true);
    const all = await search.countWeekly!(countRequest('audyt'));
    expect(all.total).toBe(6);
    expect(sum(all.weeklyCounts)).toBe(6);
    // Within 30 days: 'audyt' is in most of the window's rows, so the window is walked.
    const window = await search.countWeekly!(countRequest('audyt', daysAgo(30)));
    expect(window).toEqual(all);
    // Within 3 days: audyt-0, -1, -2 of the window's 4 rows.
    expect((await search.countWeekly!(countRequest('audyt', daysAgo(3)))).total).toBe(3);
    // A word in one row of the window: PostgreSQL's own plan.
    expect((await search.countWeekly!(countRequest('audytorzy', daysAgo(30)))).total).toBe(1);
  });

  it('gives the weeks oldest first, each a Monday, competitors by key within a week', async () => {
    const { weeklyCounts } = await createIndexSearch({ db: database.db }).countWeekly!(countRequest('audyt'));
    const keys = weeklyCounts.map((w) => `${w.weekStart} ${w.competitorKey}`);
    expect(keys).toEqual([...keys].sort());
    for (const w of weeklyCounts) expect(new Date(`${w.weekStart}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  it('counts nothing for no competitors', async () => {
    const search = createIndexSearch({ db: database.db });
    expect(await search.countWeekly!({ ...countRequest('audyt'), competitors: [] })).toEqual({
      total: 0,
      weeklyCounts: [],
    });
  });
});

describe('prefixes searched as the lexemes they stand for', () => {
  // Every page through the table's trigger, which keeps competitor_lexemes.
  const add = (pages: Page[]) =>
    database.db
      .insert(competitorPages)
      .values(pages.map((p) => ({ ...p, searchVector: searchVector({ A: p.title, B: '', C: p.bodyText }) })));
  // What a query matches, counted straight from the vectors (no lexemes, no caps).
  const expected = async (query: string, since?: Date) => {
    const tsquery = webTsquery(parseWebQuery(query))!;
    const rows = await database.db
      .select({ url: competitorPages.url })
      .from(competitorPages)
      .where(
        sql`${competitorPages.searchVector} @@ to_tsquery('english', ${tsquery})
          and (${since?.toISOString() ?? null}::timestamptz is null or ${competitorPages.publishedAt} >= ${since?.toISOString() ?? null}::timestamptz)`,
      );
    return rows.map((r) => r.url.split('/').pop()).sort();
  };
  const found = async (query: string, since?: Date) => {
    const result = await createIndexSearch({ db: database.db }).search(
      request(query, { num: 100, ...(since ? { since } : {}) }),
    );
    expect(result.totalResults).toBe(result.items.length);
    return slugs(result.items).sort();
  };

  beforeAll(async () => {
    const [first] = config.competitors.list;
    await add([
      page(first!.key, 'podatek', { bodyText: 'Podatek od energii.', publishedAt: daysAgo(1) }),
      page(first!.key, 'podatkowy', { bodyText: 'Ład podatkowy i rynek.', publishedAt: daysAgo(2) }),
      page(first!.key, 'podatki', { bodyText: 'Podatki, energia, rynek pracy.', publishedAt: daysAgo(3) }),
      page(first!.key, 'energetyka', { bodyText: 'Ceny energii na rynku.', publishedAt: daysAgo(4) }),
      page(first!.key, 'cyfrowa', {
        bodyText: 'Transformacja cyfrowa i cyfrowych usług.',
        publishedAt: daysAgo(5),
      }),
      // More forms of one prefix than PREFIX_FORMS_MAX: it stays a prefix.
      ...Array.from({ length: PREFIX_FORMS_MAX + 3 }, (_, n) =>
        page(first!.key, `wariant-${n}`, {
          bodyText: `Wariantx${n.toString(36)}yz energia.`,
          publishedAt: daysAgo(6),
        }),
      ),
    ]);
  });

  it('finds the same pages as the prefix, with OR, exclusion, phrases and many forms', async () => {
    for (const query of [
      'podatkowych',
      'podatkowych energii',
      'podatek OR energii -rynek',
      'podatki -"rynek pracy"',
      '"transformacja cyfrowa"',
      'cyfrowych OR audyt',
      'wariantx energia',
      'wariantx -podatek',
    ]) {
      const want = await expected(query);
      expect(want.length, query).toBeGreaterThan(0);
      expect(await found(query), query).toEqual(want);
    }
    expect(await found('wariantx energia')).toHaveLength(PREFIX_FORMS_MAX + 3);
  });

  it('finds the same pages within a window, walked or through the GIN index', async () => {
    // The rule of index-search.ts: the window is walked when a third or more of its newest 50 rows
    // match; the cases below take both ways.
    const walked = async (query: string, since: Date) => {
      const tsquery = webTsquery(parseWebQuery(query))!;
      const [newest] = await rowsOf<{ hits: number; n: number }>(
        database.db,
        sql`
        select count(*) filter (where search_vector @@ to_tsquery('english', ${tsquery}))::int as hits,
          count(*)::int as n
        from (select search_vector from competitor_page_terms where published_at >= ${since.toISOString()}::timestamptz
          order by published_at desc nulls last limit 50) newest`,
      );
      return newest!.hits * 3 >= newest!.n;
    };
    const ways = new Set<boolean>();
    for (const [query, days] of [
      ['podatkowych', 2.5],
      ['podatkowych', 30],
      ['wariantx energia', 30],
      ['energii -rynek', 7],
      ['"transformacja cyfrowa"', 30],
      ['audyt', 30],
      ['audyt', 2],
    ] as const) {
      const since = daysAgo(days);
      const want = await expected(query, since);
      expect(want.length, query).toBeGreaterThan(0);
      expect(await found(query, since), `${query}, ${days} days`).toEqual(want);
      ways.add(await walked(query, since));
    }
    expect([...ways].sort()).toEqual([false, true]);
  });

  it('finds a form first stored after an earlier search', async () => {
    expect(await found('podatkowych -audyt')).not.toContain('podatkami');
    await add([
      page(config.competitors.list[0]!.key, 'podatkami', {
        bodyText: 'Z podatkami.',
        publishedAt: daysAgo(1),
      }),
    ]);
    expect(await found('podatkowych -audyt')).toContain('podatkami');
  });

  it('writes a lexeme with quotes or backslashes into the query safely', async () => {
    await database.db.execute(sql`insert into competitor_lexemes values (${"podatk'\\x"}), (${'podatk\\'})`);
    expect(await found('podatkowych OR audyt')).toEqual(await expected('podatkowych OR audyt'));
  });
});
