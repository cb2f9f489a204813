// The competitor crawler's pages per minute against the local site host (packages/test-servers
// site-host.ts): robots.txt, a sitemap of N articles, each page fetched through safeFetch,
// parsed on the page parser's worker (Readability over linkedom) and stored in the index.
// Loopback only. Runs GEM's TypeScript through tsx, no build needed:
//   npx tsx bench/competitor-crawl.mjs [pages=300] [postgres://postgres@127.0.0.1:5432/test]
// Without a PostgreSQL URL it uses an in-memory PGlite. Results: bench/competitor-crawl.md.
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import pino from 'pino';
import { fictionalSite, htmlPage, startSiteHost } from '../packages/test-servers/src/site-host.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { safeFetch } from '../apps/server/src/integrations/http/safe-fetch.ts';
import { localOrPublicAddresses } from '../apps/server/src/integrations/http/address-policy.ts';
import { createCompetitorCrawler } from '../apps/server/src/modules/competitor-search/crawler/crawler.ts';

const PAGES = Number(process.argv[2] ?? 300);
const pgUrl = process.argv[3];
const migrationsDir = path.resolve(import.meta.dirname, '../apps/server/drizzle');
const log = pino({ level: 'warn' });

// Articles shaped like a consulting firm's: 30 paragraphs of Polish text inside about 80 KiB of
// HTML (a 300-link menu, inline scripts and styles, a footer), as their real pages carry.
const paragraph = (n, i) =>
  `Akapit ${i} raportu ${n}: firmy doradcze w Polsce rozwijają usługi w obszarze ESG, cyberbezpieczeństwa i transformacji cyfrowej, a zarządy pytają o koszty i harmonogram wdrożeń.`;

const script = `<script>window.__STATE__=${JSON.stringify({ menu: Array.from({ length: 400 }, (_, i) => ({ id: i, label: `Pozycja menu ${i}`, href: `/pl/menu/${i}/` })) })}</script><style>${'.nav-item{margin:0 4px;padding:2px}'.repeat(300)}</style>`;
const bulky = (html) => html.replace('</head>', `${script}</head>`);

async function database() {
  if (!pgUrl) return openDatabase({ kind: 'pglite', client: await PGlite.create() }, migrationsDir);
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query('drop database if exists gem_bench_crawl');
  await admin.query('create database gem_bench_crawl');
  const url = Object.assign(new URL(pgUrl), { pathname: '/gem_bench_crawl' }).toString();
  const db = await openDatabase({ kind: 'postgres', url, poolMax: 5 }, migrationsDir);
  return {
    ...db,
    close: async () => {
      await db.close();
      await admin.query('drop database gem_bench_crawl');
      await admin.end();
    },
  };
}

const site = await startSiteHost();
const routes = fictionalSite(site.origin, '/pl/', PAGES);
for (let n = 1; n <= PAGES; n++) {
  routes[`/pl/insights/article-${n}/`] = {
    etag: `"a${n}"`,
    body: bulky(
      htmlPage({
        title: `Raport ${n}: rynek doradczy`,
        description: `Opis raportu ${n}`,
        publishedTime: '2026-10-01T08:00:00Z',
        paragraphs: Array.from({ length: 30 }, (_, i) => paragraph(n, i)),
        links: Array.from({ length: 300 }, (_, i) => `/pl/insights/article-${((n + i) % PAGES) + 1}/`),
      }),
    ),
  };
}
site.load(routes);
const pageBytes = Buffer.byteLength(routes['/pl/insights/article-1/'].body);

// The reference, in the same run: the same pages fetched one after another with safeFetch alone.
const fetchOptions = {
  isPermittedAddress: localOrPublicAddresses,
  timeoutMs: 15_000,
  maxBytes: 2 * 1024 * 1024,
  userAgent: 'bench',
};
let t = performance.now();
for (let n = 1; n <= PAGES; n++) await safeFetch(site.url(`/pl/insights/article-${n}/`), fetchOptions);
const fetchOnlyMs = performance.now() - t;

const db = await database();
const crawlerFor = (delayMs) =>
  createCompetitorCrawler({
    db: db.db,
    competitors: [{ key: 'bench', name: 'Bench', site: site.url('/pl/') }],
    delayMs,
    maxPagesPerRound: PAGES + 10,
    allowPrivateHosts: true,
    log,
  });

const crawler = crawlerFor(0);
t = performance.now();
const [first] = await crawler.crawl();
const firstMs = performance.now() - t;
// The second round: every page answers 304 to its stored ETag.
t = performance.now();
const [second] = await crawler.crawl();
const secondMs = performance.now() - t;
await crawler.close();
await db.close();
await site.close();

const perMinute = (pages, ms) => Math.round((pages / ms) * 60_000);
const pagesRead = first.stored + first.skipped + first.failed;
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString().slice(0, 10),
      cpus: cpus().length,
      load: loadavg()[0].toFixed(1),
      node: process.version,
      database: pgUrl ? 'postgres' : 'pglite (memory)',
      pages: PAGES,
      pageKiB: Math.round(pageBytes / 1024),
      firstRound: { ...first, ms: Math.round(firstMs), pagesPerMinute: perMinute(pagesRead, firstMs) },
      secondRound304: {
        ...second,
        ms: Math.round(secondMs),
        pagesPerMinute: perMinute(second.unchanged, secondMs),
      },
      fetchOnlyReference: { ms: Math.round(fetchOnlyMs), pagesPerMinute: perMinute(PAGES, fetchOnlyMs) },
      crawlerVsFetchOnly: (fetchOnlyMs / firstMs).toFixed(2),
      withDefaultDelay: 'at most 60 pages a minute per host (GEM_COMPETITORS_CRAWL_DELAY_MS=1000)',
    },
    null,
    2,
  ),
);
