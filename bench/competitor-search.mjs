// Competitor search on GEM's own index (issue 13): the search service's latency, p50 and p99,
// with 50,000 indexed pages on PostgreSQL, one search at a time and ten at once, for several
// kinds of query. Target: p50 under 20 ms and p99 under 100 ms.
//   flock /tmp/gem-heavy.lock node bench/competitor-search.mjs [--pages 50000] [--runs 200]
//        [--pg-url postgres://postgres@127.0.0.1:5432/test]
// It creates (and at the end drops) its own database, gem_competitor_bench, fills it through
// GEM's own index writer (upsertCompetitorPages) and times GEM's own service
// (createCompetitorSearchService over createIndexSearch), so what is measured is what the route
// calls: its statements (the search reads competitor_page_terms, which the pages' triggers fill),
// the snippets and the weekly counts. Results: bench/competitor-search.md.
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { register } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    pages: { type: 'string', default: '50000' },
    runs: { type: 'string', default: '200' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    // Keep the database (and reuse it when it is there) for EXPLAIN; drop it by hand after.
    keep: { type: 'boolean', default: false },
    db: { type: 'string', default: 'gem_competitor_bench' },
  },
});
const PAGES = Number(opts.pages);
const RUNS = Number(opts.runs);
const DB_NAME = opts.db;
if (!/^[a-z_][a-z0-9_]*$/.test(DB_NAME)) throw new Error(`--db: a plain lower-case name, not ${DB_NAME}`);

register();
const load = (file) => import(pathToFileURL(path.join(root, file)).href);
const { openDatabase } = await load('apps/server/src/db/client.ts');
const { parseConfig } = await load('apps/server/src/config/index.ts');
const { upsertCompetitorPages } = await load('apps/server/src/modules/competitor-search/competitor-index.ts');
const { createCompetitorSearchService } = await load(
  'apps/server/src/modules/competitor-search/competitor-search.service.ts',
);
const { createIndexSearch } = await load('apps/server/src/integrations/web-search/index-search.ts');

// A deterministic corpus: Polish consulting vocabulary with a long tail, so some words are in
// most pages and others in a few.
let seed = 13;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const common = [
  'rynek',
  'firmy',
  'klienci',
  'zarząd',
  'strategia',
  'dane',
  'ryzyko',
  'koszty',
  'wzrost',
  'Polska',
];
const topical = [
  'transformacja cyfrowa',
  'sztuczna inteligencja',
  'raportowanie ESG',
  'cyberbezpieczeństwo',
  'łańcuchy dostaw',
  'fuzje i przejęcia',
  'ceny energii',
  'rynek pracy',
  'podatek minimalny',
  'Krajowy System e-Faktur',
  'elektromobilność',
  'nieruchomości komercyjne',
  'ochrona zdrowia',
  'bankowość detaliczna',
  'ubezpieczenia',
];
const filler = 'w na z do że się jest oraz dla przez które który jak po od są także może tym ich jego'.split(
  ' ',
);
const tail = Array.from({ length: 5000 }, (_, n) => `termin${n.toString(36)}`);
const zipf = () => tail[Math.floor(tail.length * random() ** 3)];
const words = (n) =>
  Array.from({ length: n }, () => {
    const r = random();
    if (r < 0.45) return filler[Math.floor(random() * filler.length)];
    if (r < 0.65) return common[Math.floor(random() * common.length)];
    if (r < 0.75) return topical[Math.floor(random() * topical.length)];
    return zipf();
  }).join(' ');

const config = parseConfig({});
const competitors = config.competitors.list;
const adminUrl = opts['pg-url'];
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const reuse =
  opts.keep && (await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])).rowCount > 0;
if (!reuse) {
  await admin.query(`drop database if exists ${DB_NAME}`);
  await admin.query(`create database ${DB_NAME}`);
}
const url = new URL(adminUrl);
url.pathname = `/${DB_NAME}`;
const database = await openDatabase(
  { kind: 'postgres', url: url.toString(), poolMax: 10 },
  config.migrationsDir,
);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const fmt = (ms) => ms.toFixed(1);

try {
  const DAY = 24 * 60 * 60 * 1000;
  const now = Date.now();
  const fillStarted = performance.now();
  const BATCH = 500;
  for (let i = reuse ? PAGES : 0; i < PAGES; i += BATCH) {
    const batch = [];
    for (let n = i; n < Math.min(PAGES, i + BATCH); n += 1) {
      const c = competitors[n % competitors.length];
      batch.push({
        competitorKey: c.key,
        url: `${c.site}bench/${n}.html`,
        title: words(8),
        description: words(25),
        bodyText: words(250),
        // A tenth undated; the rest over the last two years.
        publishedAt: random() < 0.1 ? null : new Date(now - Math.floor(random() * 730 * DAY)),
      });
    }
    await upsertCompetitorPages(database.db, batch);
  }
  await admin.end();
  const filled = (performance.now() - fillStarted) / 1000;
  const analyze = new pg.Client({ connectionString: url.toString() });
  await analyze.connect();
  await analyze.query('vacuum analyze competitor_pages');
  await analyze.query('vacuum analyze competitor_page_terms');
  const size = (
    await analyze.query(
      `select pg_size_pretty(pg_total_relation_size('competitor_pages')) as pages,
        pg_size_pretty(pg_total_relation_size('competitor_page_terms')) as terms`,
    )
  ).rows[0];
  await analyze.end();
  console.log(
    `${PAGES} pages indexed in ${filled.toFixed(0)} s; with indexes: competitor_pages ${size.pages}, competitor_page_terms ${size.terms}`,
  );

  const service = createCompetitorSearchService({
    db: database.db,
    search: createIndexSearch({ db: database.db }),
    competitors: config.competitors,
  });
  const base = { num: 10, start: 1, sort: 'date', dateRestrict: null, siteSearch: null };
  const queries = [
    { name: 'common word (rynek), by date', request: { ...base, query: 'rynek' } },
    { name: 'common word, by relevance', request: { ...base, query: 'rynek', sort: 'relevance' } },
    // What the screen sends: it always has a window, 90 days unless changed.
    { name: 'common word, 90 days (the screen)', request: { ...base, query: 'rynek', dateRestrict: 'd90' } },
    {
      name: 'common word, 90 days, by relevance',
      request: { ...base, query: 'rynek', dateRestrict: 'd90', sort: 'relevance' },
    },
    { name: 'rare word, 90 days', request: { ...base, query: tail[4000], dateRestrict: 'd90' } },
    // Where the screen's 'Search the last 12 months' leads when 90 days found nothing.
    { name: 'rare word, 365 days', request: { ...base, query: tail[4000], dateRestrict: 'd365' } },
    // A prefix that stands for many words (terminz, terminz0 … terminzz: 42% of the pages), where
    // PostgreSQL's estimate is far too low; and a phrase, within the screen's window.
    { name: 'prefix of many forms, 90 days', request: { ...base, query: 'terminz', dateRestrict: 'd90' } },
    {
      name: 'phrase, 90 days',
      request: { ...base, query: '"transformacja cyfrowa"', dateRestrict: 'd90' },
    },
    {
      name: 'two common words, 90-day window',
      request: { ...base, query: 'strategia ryzyko', dateRestrict: 'd90' },
    },
    { name: 'rare word (tail)', request: { ...base, query: tail[4000] } },
    { name: 'phrase "transformacja cyfrowa"', request: { ...base, query: '"transformacja cyfrowa"' } },
    {
      name: 'site filter (one competitor), w12',
      request: { ...base, query: 'dane', siteSearch: 'www.pwc.pl/pl/', dateRestrict: 'w12' },
    },
    { name: 'OR and exclusion, page 3', request: { ...base, query: 'podatek OR energii -rynek', start: 21 } },
  ];
  for (const q of queries) {
    const r = await service.search(q.request);
    q.total = r.searchInformation.formattedTotalResults;
  }
  // A reference in the same run, for how busy the machine was: one row by its unique URL.
  const referenceUrl = `${competitors[0].site}bench/0.html`;
  queries.push({
    name: 'reference: one row by URL (unique index)',
    total: '1',
    request: () =>
      database.db.execute(sql`select id, title from competitor_pages where url = ${referenceUrl}`),
  });
  const loadAtStart = loadavg();

  const time = async (request) => {
    const t = performance.now();
    await (typeof request === 'function' ? request() : service.search(request));
    return performance.now() - t;
  };
  /** `count` searches, ten in flight at once; their times. */
  const tenAtOnce = async (request, count) => {
    const times = [];
    let left = count;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (left > 0) {
          left -= 1;
          times.push(await time(request));
        }
      }),
    );
    return times;
  };
  const results = [];
  for (const q of queries) {
    for (let i = 0; i < 20; i += 1) await time(q.request);
    const one = [];
    for (let i = 0; i < RUNS; i += 1) one.push(await time(q.request));
    // Warmed up ten at once too: the pool opens its other connections here, not in the measurement
    // (the first row's p99 ten at once was the connections opening, ~300 ms each on a busy machine).
    await tenAtOnce(q.request, 20);
    const ten = await tenAtOnce(q.request, RUNS);
    one.sort((a, b) => a - b);
    ten.sort((a, b) => a - b);
    results.push({
      query: q.name,
      matches: q.total,
      'p50 (1)': fmt(quantile(one, 0.5)),
      'p99 (1)': fmt(quantile(one, 0.99)),
      'p50 (10)': fmt(quantile(ten, 0.5)),
      'p99 (10)': fmt(quantile(ten, 0.99)),
    });
  }
  console.log(
    `\n${cpus().length} cores, Node ${process.version}, load average at start ${loadAtStart
      .map((l) => l.toFixed(2))
      .join(' ')}, at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`${RUNS} searches per query and mode (after 20 to warm up, in each mode); milliseconds\n`);
  console.log(
    '| query | matches | p50, one at a time | p99, one at a time | p50, ten at once | p99, ten at once |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    console.log(
      `| ${r.query} | ${r.matches} | ${r['p50 (1)']} | ${r['p99 (1)']} | ${r['p50 (10)']} | ${r['p99 (10)']} |`,
    );
  }
} finally {
  await database.close();
  const drop = new pg.Client({ connectionString: adminUrl });
  await drop.connect();
  if (!opts.keep) await drop.query(`drop database if exists ${DB_NAME}`);
  await drop.end();
}
