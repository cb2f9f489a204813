import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import { openDatabase, type Database, type Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { competitorPages } from '../../db/schema/competitor-search';
import { searchVector, webTsquery } from '../../lib/search-text';
import { createIndexSearch } from './index-search';
import { searchRequest } from './search-request.fixture';
import type { WebSearchRequest } from './web-search';

// The search reads competitor_page_terms, a copy of each page's competitor, date and vector that
// triggers on competitor_pages keep (migration 0010). Whatever is written to the pages, a search
// must find what the same query finds in competitor_pages itself: the same pages, in the same
// order, with the same counts.

const config = testConfig();
const [first, second, third] = config.competitors.list;
const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

const words = ['audyt', 'rynek', 'podatek', 'energii', 'transformacja cyfrowa', 'ryzyko', 'klienci'];

type Page = { competitorKey: string; url: string; title: string; bodyText: string; publishedAt: Date | null };

const row = (p: Page) => ({ ...p, searchVector: searchVector({ A: p.title, B: '', C: p.bodyText }) });

/** Pages with a few of the words each, over three competitors and eight weeks, some undated. */
const pages: Page[] = Array.from({ length: 40 }, (_, n) => {
  const c = [first!, second!, third!][n % 3]!;
  return {
    competitorKey: c.key,
    url: `${c.site}strona-${n}`,
    title: n % 7 === 0 ? `Rynek ${n}` : `Strona ${n}`,
    bodyText: words.filter((_, w) => (n * (w + 3)) % (w + 2) === 0).join(', ') || 'Nic.',
    publishedAt: n % 9 === 4 ? null : daysAgo((n * 37) % 56),
  };
});

const request = (query: string, fields: Partial<WebSearchRequest> = {}) =>
  searchRequest(query, { num: 100, now, competitors: config.competitors.list }, fields);

const cases: [string, Partial<WebSearchRequest>][] = [
  ['audyt', {}],
  ['rynek', {}],
  ['rynek', { sort: 'relevance' }],
  ['"transformacja cyfrowa"', {}],
  ['podatek OR energii -rynek', {}],
  ['ryzyko klienci', { since: daysAgo(21) }],
  ['klienci', { competitors: [second!], sort: 'relevance' }],
  ['rynek', { competitors: [first!, third!], since: daysAgo(35) }],
];

/** The same query straight on competitor_pages: every match, in the search's order, and the weekly counts. */
async function fromPages(db: Db, query: string, fields: Partial<WebSearchRequest>) {
  const r = request(query, fields);
  const tsquery = sql`to_tsquery('english', ${webTsquery(r.query)!})`;
  const where = sql.join(
    [
      sql`search_vector @@ ${tsquery}`,
      sql`competitor_key in (${sql.join(
        r.competitors.map((c) => sql`${c.key}`),
        sql`, `,
      )})`,
      ...(r.since ? [sql`published_at >= ${r.since.toISOString()}::timestamptz`] : []),
    ],
    sql` and `,
  );
  const rank =
    r.sort === 'relevance'
      ? sql`ts_rank_cd('{0.1, 0.2, 0.4, 1.0}'::float4[], search_vector, ${tsquery}) desc,`
      : sql``;
  const matches = await rowsOf<{ url: string }>(
    db,
    sql`select url from competitor_pages where ${where} order by ${rank} published_at desc nulls last, id desc`,
  );
  const weeks = await rowsOf<{ competitorKey: string; weekStart: string; count: number }>(
    db,
    sql`select competitor_key as "competitorKey",
        to_char(date_trunc('week', published_at at time zone 'UTC'), 'YYYY-MM-DD') as "weekStart",
        count(*)::int as count
      from competitor_pages where ${where} and published_at is not null
      group by 1, 2 order by 2, 1`,
  );
  return {
    links: matches.map((m) => m.url),
    total: matches.length,
    weeklyCounts: weeks.map((w) => ({ ...w, count: Number(w.count) })),
  };
}

/** Every case's search against the same query on competitor_pages, then the copy row for row. */
async function expectSearchAsOnPages(db: Db) {
  const columns = (table: string) =>
    rowsOf<unknown>(
      db,
      sql`select id, competitor_key, published_at, search_vector::text as vector from ${sql.identifier(table)} order by id`,
    );
  const search = createIndexSearch({ db });
  for (const [query, fields] of cases) {
    const found = await search.search(request(query, fields));
    const label = `${query} ${JSON.stringify(fields)}`;
    expect(
      {
        links: found.items.map((i) => i.link),
        total: found.totalResults,
        weeklyCounts: found.weeklyCounts ?? [],
      },
      label,
    ).toEqual(await fromPages(db, query, fields));
  }
  expect(await columns('competitor_page_terms')).toEqual(await columns('competitor_pages'));
}

describe('competitor_page_terms, kept by the triggers on competitor_pages', () => {
  let database: Database;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    await db.insert(competitorPages).values(pages.map(row));
  });

  afterAll(async () => {
    await database?.close();
  });

  it('has every inserted page', async () => {
    expect((await fromPages(db, 'rynek', {})).total).toBeGreaterThan(10);
    await expectSearchAsOnPages(db);
  });

  it('follows a page whose text changes (as the index writer upserts it)', async () => {
    const changed = [pages[1]!, pages[2]!, pages[3]!].map((p, n) => ({
      ...p,
      bodyText: ['Audyt rynek.', 'Transformacja cyfrowa, podatek.', 'Nic.'][n]!,
    }));
    await db
      .insert(competitorPages)
      .values(changed.map(row))
      .onConflictDoUpdate({
        target: competitorPages.url,
        set: { bodyText: sql`excluded.body_text`, searchVector: sql`excluded.search_vector` },
      });
    await expectSearchAsOnPages(db);
  });

  it('follows a page whose date changes, to another date and to none', async () => {
    await db
      .update(competitorPages)
      .set({ publishedAt: daysAgo(2) })
      .where(eq(competitorPages.url, pages[4]!.url));
    await db.update(competitorPages).set({ publishedAt: null }).where(eq(competitorPages.url, pages[5]!.url));
    await db
      .update(competitorPages)
      .set({ publishedAt: daysAgo(50) })
      .where(eq(competitorPages.url, pages[13]!.url));
    await expectSearchAsOnPages(db);
  });

  it('follows a page that moves to another competitor', async () => {
    await db
      .update(competitorPages)
      .set({ competitorKey: second!.key })
      .where(sql`${competitorPages.url} in (${pages[6]!.url}, ${pages[9]!.url})`);
    await expectSearchAsOnPages(db);
  });

  it('drops a deleted page', async () => {
    await db
      .delete(competitorPages)
      .where(sql`${competitorPages.url} in (${pages[7]!.url}, ${pages[14]!.url})`);
    await expectSearchAsOnPages(db);
  });

  it('writes nothing for an update that changes none of its columns', async () => {
    const version = async () =>
      (
        await rowsOf<{ x: string }>(
          db,
          sql`select t.xmin::text as x from competitor_page_terms t join competitor_pages p using (id) where p.url = ${pages[8]!.url}`,
        )
      )[0]!.x;
    const before = await version();
    await db.update(competitorPages).set({ fetchedAt: now }).where(eq(competitorPages.url, pages[8]!.url));
    expect(await version()).toBe(before);
    await db
      .update(competitorPages)
      .set({ searchVector: searchVector({ A: 'Inna', C: 'audyt' }) })
      .where(eq(competitorPages.url, pages[8]!.url));
    expect(await version()).not.toBe(before);
    await expectSearchAsOnPages(db);
  });
});

describe('migration 0010', () => {
  it('copies the pages already stored', async () => {
    const { migrationsDir } = testConfig();
    // The migrations up to 0009, then the pages, then every migration.
    const dir = mkdtempSync(path.join(tmpdir(), 'gem-migrations-0009-'));
    mkdirSync(path.join(dir, 'meta'));
    const journal = JSON.parse(readFileSync(path.join(migrationsDir, 'meta/_journal.json'), 'utf8')) as {
      entries: { idx: number; tag: string }[];
    };
    journal.entries = journal.entries.filter((e) => e.idx <= 9);
    writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
    for (const e of journal.entries)
      copyFileSync(path.join(migrationsDir, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
    expect(readdirSync(dir)).toContain('0009_competitor_lexemes.sql');

    let close: () => Promise<void>;
    let open: (migrations: string) => Promise<Database>;
    if (inject('dbKind') === 'postgres') {
      const name = `gem_test_0010_${process.pid}`;
      const admin = new pg.Client({ connectionString: inject('postgresUrl') });
      await admin.connect();
      await admin.query(`drop database if exists ${name}`);
      await admin.query(`create database ${name}`);
      const url = new URL(inject('postgresUrl'));
      url.pathname = `/${name}`;
      open = (migrations) => openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 2 }, migrations);
      close = async () => {
        await admin.query(`drop database if exists ${name}`);
        await admin.end();
      };
    } else {
      const client = new PGlite();
      open = (migrations) => openDatabase({ kind: 'pglite', client }, migrations);
      close = () => client.close();
    }
    try {
      const before = await open(dir);
      const tables = async (d: Database) =>
        (
          await rowsOf<{ n: number }>(
            d.db,
            sql`select count(*)::int as n from pg_tables where tablename = 'competitor_page_terms'`,
          )
        )[0]!.n;
      expect(await tables(before)).toBe(0);
      await before.db.insert(competitorPages).values(pages.map(row));
      let after: Database;
      if (before.kind === 'postgres') {
        await before.close();
        after = await open(migrationsDir);
      } else {
        after = await open(migrationsDir);
      }
      try {
        expect(await tables(after)).toBe(1);
        await expectSearchAsOnPages(after.db);
      } finally {
        if (after.kind === 'postgres') await after.close();
      }
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
