// The competitor crawler's peak memory with large sitemaps (issue 25): the resident size the
// crawling process reaches during a round over a site with a large sitemap, as the increase over
// a round over a plain site in the same process just before. Loopback only. Runs GEM's
// TypeScript through tsx, no build needed:
//   npx tsx bench/competitor-crawl-memory.mjs [--runs 5] [--postgres postgres://postgres@127.0.0.1:5432/test]
//                                            [--scenarios none,sitemap-100k,index-4x100k,index-4x100k-same-date]
// Without --postgres the crawler stores into an in-memory PGlite (about 640 MiB resident of its
// own); with it, into a database of its own on that server (gem_bench_crawl_memory, made and
// dropped for each run).
//   npx tsx bench/competitor-crawl-memory.mjs --chunk-cost
// (what reading a sitemap costs the server's thread per chunk: p50, max, total; after issue 25)
// Results and how to read them: bench/competitor-crawl.md ("Memory with large sitemaps").
//
// The site hosts (packages/test-servers site-host.ts) run in this process, which makes the
// sitemaps; each run crawls in a child process of its own, started as the server is
// (scripts/server-runtime.mjs: Node flags and environment), so the child's memory is the
// crawler's alone. The child reads its peak resident size from /proc/self/status (VmHWM) and
// resets it between rounds through /proc/self/clear_refs (Linux).
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs';

const MiB = 1024 * 1024;
const ENTRIES = 100_000;
const PAGES_PER_ROUND = 5;
const mib = (bytes) => Math.round((bytes / MiB) * 10) / 10;

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], process.argv[5]);
else if (process.argv[2] === '--chunk-cost') await chunkCost();
else await parent();

async function parent() {
  const { fictionalSite, sitemap, sitemapIndex, startSiteHost } =
    await import('../packages/test-servers/src/site-host.ts');
  const { values: opts } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      scenarios: { type: 'string', default: 'none,sitemap-100k,index-4x100k,index-4x100k-same-date' },
      postgres: { type: 'string' },
    },
  });
  const runs = Number(opts.runs);
  const scenarios = opts.scenarios.split(',');

  // An hour ago, then a minute older for each entry: sitemap k holds entries k·100k … k·100k+99,999.
  const t0 = Date.now() - 3600_000;
  const dateOf = (n) => new Date(t0 - n * 60_000).toISOString();
  const bigSitemap = (origin, k) =>
    sitemap(
      Array.from({ length: ENTRIES }, (_, i) => {
        const n = k * ENTRIES + i;
        return { loc: `${origin}/pl/insights/article-${n + 1}/`, lastmod: dateOf(n) };
      }),
    );
  const xml = (body) => ({ body, contentType: 'application/xml' });

  /** The site of each scenario: the plain site, with its sitemap replaced or indexed. */
  function routesFor(scenario, origin) {
    const routes = fictionalSite(origin, '/pl/', 50);
    if (scenario === 'sitemap-100k') routes['/pl/sitemap.xml'] = xml(bigSitemap(origin, 0));
    if (scenario.startsWith('index-4x100k')) {
      routes['/robots.txt'] = {
        body: `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap_index.xml\n`,
        contentType: 'text/plain',
      };
      // Dated: each child carries its newest entry's date. Same date: the index stamps every
      // child with the time it was made, as many sites do, so any child may hold the newest.
      const sameDate = scenario.endsWith('same-date');
      routes['/sitemap_index.xml'] = xml(
        sitemapIndex(
          [0, 1, 2, 3].map((k) => ({
            loc: `${origin}/pl/sitemap-${k}.xml`,
            lastmod: sameDate ? dateOf(0) : dateOf(k * ENTRIES),
          })),
        ),
      );
      for (const k of [0, 1, 2, 3]) routes[`/pl/sitemap-${k}.xml`] = xml(bigSitemap(origin, k));
    }
    return routes;
  }

  const base = await startSiteHost();
  base.load(fictionalSite(base.origin, '/pl/', 50));
  const hosts = {};
  const routes = {};
  const sitemapBytes = {};
  for (const scenario of scenarios) {
    hosts[scenario] = await startSiteHost();
    routes[scenario] = routesFor(scenario, hosts[scenario].origin);
    sitemapBytes[scenario] = Math.round(
      Object.entries(routes[scenario])
        .filter(([p]) => p.includes('sitemap'))
        .reduce((n, [, route]) => n + Buffer.byteLength(route.body), 0) / MiB,
    );
  }

  const results = Object.fromEntries(scenarios.map((s) => [s, []]));
  for (let run = 1; run <= runs; run++) {
    for (const scenario of scenarios) {
      const site = hosts[scenario];
      site.reset();
      site.load(routes[scenario]);
      const answer = await runChild(base.origin, site.origin, opts.postgres);
      answer.sitemapRequests = site.requests().filter((r) => r.path.includes('sitemap')).length;
      results[scenario].push(answer);
      console.error(
        `run ${run} ${scenario}: +${mib(answer.peak - answer.basePeak)} MiB (base ${mib(answer.basePeak)}, peak ${mib(answer.peak)}), ${answer.sitemapRequests} sitemap requests, ${answer.ms} ms${answer.error ? `, error: ${answer.error}` : ''}`,
      );
    }
  }
  await base.close();
  for (const site of Object.values(hosts)) await site.close();

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summary = Object.fromEntries(
    scenarios.map((s) => {
      const rs = results[s];
      return [
        s,
        {
          sitemapMiB: sitemapBytes[s],
          sitemapRequests: median(rs.map((r) => r.sitemapRequests)),
          increaseMiB: mib(median(rs.map((r) => r.peak - r.basePeak))),
          increasesMiB: rs.map((r) => mib(r.peak - r.basePeak)),
          basePeakMiB: mib(median(rs.map((r) => r.basePeak))),
          peakMiB: mib(median(rs.map((r) => r.peak))),
          roundMs: median(rs.map((r) => r.ms)),
          outcome: rs.at(-1).outcome,
        },
      ];
    }),
  );
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString().slice(0, 10),
        cpus: cpus().length,
        load: loadavg()[0].toFixed(1),
        node: process.version,
        runs,
        database: opts.postgres ? 'postgres' : 'pglite (memory)',
        pagesPerRound: PAGES_PER_ROUND,
        summary,
      },
      null,
      2,
    ),
  );
}

function runChild(baseOrigin, siteOrigin, pgUrl) {
  return new Promise((resolve, reject) => {
    const proc = fork(import.meta.filename, ['--child', baseOrigin, siteOrigin, ...(pgUrl ? [pgUrl] : [])], {
      execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS],
      env: serverEnv(process.env),
    });
    let answer;
    proc.on('message', (m) => (answer = m));
    proc.on('error', reject);
    proc.on('exit', (code) => (answer ? resolve(answer) : reject(new Error(`the child exited ${code}`))));
  });
}

/** One process: a round over the plain site, then one over the scenario's site; peaks of each. */
async function child(baseOrigin, siteOrigin, pgUrl) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { default: pg } = await import('pg');
  const { default: pino } = await import('pino');
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const { createCompetitorCrawler } =
    await import('../apps/server/src/modules/competitor-search/crawler/crawler.ts');
  const peak = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');

  const migrationsDir = path.resolve(import.meta.dirname, '../apps/server/drizzle');
  const DB = 'gem_bench_crawl_memory';
  let admin;
  let db;
  if (pgUrl) {
    admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${DB}`);
    await admin.query(`create database ${DB}`);
    const url = Object.assign(new URL(pgUrl), { pathname: `/${DB}` }).toString();
    db = await openDatabase({ kind: 'postgres', url, poolMax: 5 }, migrationsDir);
  } else {
    db = await openDatabase({ kind: 'pglite', client: await PGlite.create() }, migrationsDir);
  }
  const crawler = createCompetitorCrawler({
    db: db.db,
    competitors: [
      { key: 'base', name: 'Base', site: `${baseOrigin}/pl/` },
      { key: 'big', name: 'Big', site: `${siteOrigin}/pl/` },
    ],
    delayMs: 0,
    maxPagesPerRound: PAGES_PER_ROUND,
    // Before issue 25 a 100k-URL sitemap took the page parser 4 s on a quiet machine, over its
    // 10 s budget on a busy one, and a parse stopped at the budget would hide its memory.
    parseBudgetMs: 120_000,
    allowPrivateHosts: true,
    log: pino({ level: 'warn' }),
  });
  resetPeak();
  await crawler.crawl({ keys: ['base'] });
  const basePeak = peak();
  resetPeak();
  const t = performance.now();
  const [outcome] = await crawler.crawl({ keys: ['big'] });
  const ms = Math.round(performance.now() - t);
  const scenarioPeak = peak();
  await crawler.close();
  await db.close();
  if (admin) {
    await admin.query(`drop database ${DB}`);
    await admin.end();
  }
  const { key: _key, error, ...counts } = outcome;
  process.send({ basePeak, peak: scenarioPeak, ms, outcome: counts, error }, () => process.exit(0));
}

/** Three 15–19 MiB documents read as the crawler reads them, timing each chunk's parse. */
async function chunkCost() {
  const { createServer } = await import('node:http');
  const { readSitemaps } = await import('../apps/server/src/modules/competitor-search/crawler/sitemaps.ts');
  const { safeFetch } = await import('../apps/server/src/integrations/http/safe-fetch.ts');
  const { localOrPublicAddresses } = await import('../apps/server/src/integrations/http/address-policy.ts');
  const docs = {
    '/small.xml': '<urlset><url><loc>http://127.0.0.1/pl/x/</loc></url></urlset>',
    '/entries.xml': `<urlset>${Array.from({ length: 180_000 }, (_, i) => `<url><loc>http://127.0.0.1/pl/a-${i}/</loc><lastmod>2026-11-01T00:00:00Z</lastmod></url>`).join('')}</urlset>`,
    '/no-entries.xml': `<urlset><url>${'<x a="1">t</x>'.repeat(1_400_000)}</url></urlset>`,
    '/big-text.xml': `<urlset><url><loc>${'a'.repeat(20_000_000)}</loc></url></urlset>`,
  };
  const server = createServer((req, res) => res.end(docs[req.url])).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.on('listening', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const maxBytes = 20 * MiB + 1024;
  for (const [docPath, body] of Object.entries(docs)) {
    const times = [];
    let entries = 0;
    const t = performance.now();
    await readSitemaps({
      roots: [origin + docPath],
      origin,
      site: `${origin}/pl/`,
      maxBytes,
      now: Date.now(),
      fetch: async (url, onData) => {
        const answer = await safeFetch(url, {
          isPermittedAddress: localOrPublicAddresses,
          timeoutMs: 60_000,
          maxBytes,
          userAgent: 'bench',
          onData: (chunk) => {
            const start = performance.now();
            const more = onData(chunk);
            times.push(performance.now() - start);
            return more;
          },
        });
        return answer.status === 'ok';
      },
      allows: () => true,
      couldTake: () => true,
      onPage: () => (entries += 1),
      onError: (_url, err) => console.log(docPath, 'error:', err.message),
      signal: new AbortController().signal,
    });
    const wall = performance.now() - t;
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        document: docPath,
        MiB: mib(Buffer.byteLength(body)),
        entries,
        chunks: times.length,
        firstChunkMs: +times[0].toFixed(1),
        p50ChunkMs: +sorted[sorted.length >> 1].toFixed(2),
        maxChunkMs: +sorted.at(-1).toFixed(1),
        parseMs: Math.round(times.reduce((a, b) => a + b, 0)),
        wallMs: Math.round(wall),
      }),
    );
  }
  server.close();
}
