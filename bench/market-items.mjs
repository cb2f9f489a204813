// The Market Research item-page API with 10,000 stored items, on a PostgreSQL server:
// GET /api/markets/technology (first page, a deep page, a search) through the built server,
// then the area page in Chromium scrolled to 1,000 items.
// Run `npm run build` first, then
//   node bench/market-items.mjs [postgres://postgres@127.0.0.1:5432/test] [requests=400]
// It creates (and at the end drops) its own database, gem_bench, on that server.
// Results and how to read them: bench/market-items.md.
/* global window, document, requestAnimationFrame -- the page.evaluate callbacks run in the page */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { launchChromium } from '../e2e/support/chromium.mjs';
import { signInAsMarketer } from './support/sign-in.mjs';

const root = path.resolve(import.meta.dirname, '..');
const adminUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/test';
const requests = Number(process.argv[3] ?? 400);
const ITEMS = 10_000;
const DB = 'gem_bench';
const benchUrl = Object.assign(new URL(adminUrl), { pathname: `/${DB}` }).toString();

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

// Varied, English-looking items: "quantum" is in 1 in 97 titles (rare), "bank" in about 1 in 4
// (common), "cloud" in 1 in 7 and "warsaw" in 1 in 7 (the two together: rare, but found apart).
const subjects = [
  'Banks',
  'Chip makers',
  'Retailers',
  'Insurers',
  'Start-ups',
  'Carmakers',
  'Telecoms',
  'Utilities',
];
const verbs = [
  'invest in',
  'cut spending on',
  'test',
  'roll out',
  'rethink',
  'partner on',
  'hire for',
  'audit',
];
const objects = [
  'cloud platforms',
  'AI assistants',
  'cyber defences',
  'data centres',
  'smart factories',
  'payment apps',
  'edge devices',
  'open banking',
];
const places = [
  'in Warsaw',
  'in Kraków',
  'across the region',
  'in Gdańsk',
  'in Wrocław',
  'in Poznań',
  'in Łódź',
];
function item(n, now) {
  const s = subjects[n % 8];
  const v = verbs[Math.floor(n / 8) % 8];
  const o = n % 97 === 0 ? 'quantum computing' : objects[Math.floor(n / 64) % 8];
  const p = places[n % 7];
  return {
    guid: `bench-${n}`,
    url: `https://www.tech-bench.example/${n}`,
    title: `${s} ${v} ${o} ${p} (${n})`,
    text: `Story ${n}: ${s.toLowerCase()} ${v} ${o} ${p}, according to people familiar with the plans. Analysts expect more news in the coming weeks.`,
    image: n % 5 === 0 ? null : `https://images.tech-bench.example/${n}.jpg`,
    author: ['Tech Desk', 'Anna Nowak', 'Piotr Zieliński'][n % 3],
    // One item every 10 minutes back from now: ten thousand span about 70 days.
    at: new Date(now - n * 10 * 60_000),
  };
}

async function seed(admin) {
  await admin.query(`drop database if exists ${DB}`);
  await admin.query(`create database ${DB}`);
}

async function insertItems() {
  const client = new pg.Client({ connectionString: benchUrl });
  await client.connect();
  const now = Date.now();
  await client.query('delete from market_feed_items');
  for (let start = 0; start < ITEMS; start += 500) {
    const values = [];
    const params = [];
    for (let n = start; n < Math.min(ITEMS, start + 500); n++) {
      const it = item(n, now);
      const b = params.length;
      params.push(
        it.guid,
        it.url,
        it.title,
        it.image,
        it.at.toISOString(),
        it.text,
        JSON.stringify([it.author]),
      );
      values.push(
        `('technology', $${b + 1}, $${b + 2}, $${b + 3}, $${b + 2}, $${b + 4}, $${b + 5}::timestamptz, $${b + 6}, $${b + 7}::jsonb, now(), now(), $${b + 5}::timestamptz,
          setweight(to_tsvector('english', lower($${b + 3})), 'A') || setweight(to_tsvector('english', lower($${b + 6} || ' ' || ($${b + 7}::jsonb ->> 0))), 'B'))`,
      );
    }
    await client.query(
      `insert into market_feed_items (feed_key, guid, canonical_url, title, url, image_url, published_at, content_text, authors, first_seen_at, last_seen_at, sort_at, search_vector)
       values ${values.join(',')}`,
      params,
    );
  }
  await client.query('analyze market_feed_items');
  const { rows } = await client.query('select count(*)::int as n from market_feed_items');
  await client.end();
  return rows[0].n;
}

async function waitReady(base, child) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(`${base}/api/ready`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('GEM did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const pick = (xs, q) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(q * xs.length) - 1))];

/** `count` requests, `concurrency` at a time; latencies in ms, and requests per second. */
async function load(url, token, count, concurrency) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < count) {
      next += 1;
      const t0 = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: pick(latencies, 0.5), p99: pick(latencies, 0.99), rps: count / seconds };
}

/**
 * Scrolls the page 200 px a frame (a fast flick), top to bottom and back to the top if it is
 * short, for 300 frames; returns the frame intervals (ms).
 */
async function scrollFrames(page, cdp) {
  const metrics = async () =>
    Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const before = await metrics();
  const frames = await page.evaluate(async () => {
    window.scrollTo(0, 0);
    await new Promise((r) => setTimeout(r, 200));
    const times = [];
    let last = performance.now();
    await new Promise((resolve) => {
      function step(now) {
        times.push(now - last);
        last = now;
        const end = document.documentElement.scrollHeight - window.innerHeight;
        if (window.scrollY >= end - 1) window.scrollTo(0, 0);
        else window.scrollBy(0, 200);
        if (times.length > 300) resolve();
        else requestAnimationFrame(step);
      }
      requestAnimationFrame(step);
    });
    times.shift();
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
    return {
      count: times.length,
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
      max: times.at(-1),
      long: times.filter((t) => t > 50).length,
    };
  });
  const after = await metrics();
  // Main-thread work per frame (seconds in the metrics), which the machine's load skews less.
  const perFrame = (name) => ((after[name] - before[name]) * 1000) / frames.count;
  return {
    ...frames,
    task: perFrame('TaskDuration'),
    layout: perFrame('LayoutDuration'),
    style: perFrame('RecalcStyleDuration'),
    script: perFrame('ScriptDuration'),
  };
}
const frameLine = (f) =>
  `${f.count} frames: p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, max ${f.max.toFixed(1)} ms, ${f.long} over 50 ms; main-thread work per frame ${f.task.toFixed(2)} ms (layout ${f.layout.toFixed(2)}, style ${f.style.toFixed(2)}, script ${f.script.toFixed(2)})`;

const scratch = mkdtempSync(path.join(tmpdir(), 'gem-bench-market-'));
const admin = new pg.Client({ connectionString: adminUrl });
let gem;
let browser;
try {
  await admin.connect();
  await seed(admin);
  // One configured feed whose address GEM may not read (loopback, private hosts not allowed):
  // every refresh fails at once and the stored items are served as they are.
  const feedsFile = path.join(scratch, 'feeds.json');
  writeFileSync(feedsFile, JSON.stringify({ technology: 'http://127.0.0.1:9/bench-feed.xml' }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  gem = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      // Not production: production refuses the demo accounts this script signs in with.
      NODE_ENV: 'test',
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      DATABASE_URL: benchUrl,
      GEM_FEEDS_FILE: feedsFile,
      GEM_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitReady(base, gem);
  const stored = await insertItems();

  // Sign in as the demo marketer in Chromium and keep the access token the page sends.
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: base });
  const page = await context.newPage();
  let token;
  page.on('request', (req) => {
    const auth = req.headers().authorization;
    if (req.url().includes('/api/') && auth?.startsWith('Bearer ')) token = auth.slice(7);
  });
  // Sign in as the demo marketer (the embedded provider's popup).
  await signInAsMarketer(page);
  for (let i = 0; i < 50 && !token; i++) await page.waitForTimeout(100);
  if (!token) throw new Error('no access token seen');

  const api = `${base}/api/markets/technology`;
  const get = (url) => fetch(url, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
  // A cursor about half-way down: the page after item 5,000.
  let cursor;
  for (let i = 0; i < 100; i++) {
    const body = await get(`${api}?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
    cursor = body.nextCursor;
  }
  // How many stored items each search matches (the same prefix query GEM runs).
  const bench = new pg.Client({ connectionString: benchUrl });
  await bench.connect();
  const hits = async (tsquery) =>
    (
      await bench.query(
        `select count(*)::int as n from market_feed_items where search_vector @@ to_tsquery('english', $1)`,
        [tsquery],
      )
    ).rows[0].n;
  const [quantum, bank, cloudWarsaw] = [
    await hits('quantum:*'),
    await hits('bank:*'),
    await hits('cloud:* & warsaw:*'),
  ];
  await bench.end();
  const cases = [
    ['first page (20 items)', `${api}`],
    ['first page (30 items, as the page asks)', `${api}?limit=30`],
    ['page after item 5,000 (cursor, 30 items)', `${api}?limit=30&cursor=${cursor}`],
    [`search q=quantum (rare: ${quantum} hits, 30 items)`, `${api}?limit=30&q=quantum`],
    [`search q=bank (common: ${bank} hits, 30 items)`, `${api}?limit=30&q=bank`],
    [`search q=cloud warsaw (two words: ${cloudWarsaw} hits, 30 items)`, `${api}?limit=30&q=cloud%20warsaw`],
  ];
  for (const [, url] of cases) await load(url, token, 50, 1); // warm-up

  const rows = [];
  for (const [label, url] of cases) {
    const one = await load(url, token, requests, 1);
    const ten = await load(url, token, requests, 10);
    rows.push(
      `| ${label} | ${one.p50.toFixed(1)} | ${one.p99.toFixed(1)} | ${ten.p50.toFixed(1)} | ${ten.p99.toFixed(1)} | ${ten.rps.toFixed(0)} |`,
    );
  }

  // The page itself: scroll the technology area until 1,000 items are in the list, then
  // measure frame times while scrolling through them.
  await page.goto('/market-research/technology');
  const list = page.getByRole('list', { name: 'Technology news', exact: true });
  await list.locator('article').first().waitFor({ timeout: 15_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  // The same flick on the first page (30 items), to compare against.
  const baseline = await scrollFrames(page, cdp);
  const loadStart = performance.now();
  for (let i = 0; i < 400 && (await list.locator('article').count()) < 1000; i++) {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(50);
  }
  const loadedItems = await list.locator('article').count();
  const loadSeconds = (performance.now() - loadStart) / 1000;
  const frames = await scrollFrames(page, cdp);
  const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);

  const load1 = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  console.log(
    `${new Date().toISOString()}, ${cpus().length} cores, load average ${load1}, Node ${process.versions.node}, PostgreSQL ${(await admin.query('show server_version')).rows[0].server_version}, ${stored} items stored in the area, ${requests} requests per cell after ${50} warm-up\n`,
  );
  console.log('GET /api/markets/technology, latency in ms (client and server on the same machine):\n');
  console.log(
    '| request | p50, 1 at a time | p99, 1 at a time | p50, 10 at once | p99, 10 at once | req/s, 10 at once |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`\nThe area page in Chromium (1440×900, headless, no GPU), scrolled 200 px a frame:`);
  console.log(`- first page, 30 items: ${frameLine(baseline)}`);
  console.log(
    `- ${loadedItems} items (loaded by scrolling in ${loadSeconds.toFixed(1)} s): ${frameLine(frames)}`,
  );
  console.log(`- JS heap with ${loadedItems} items: ${(heap / 1048576).toFixed(1)} MiB`);
} finally {
  await browser?.close();
  if (gem) {
    const exited = new Promise((r) => gem.once('exit', r));
    gem.kill('SIGTERM');
    await exited;
  }
  await admin.query(`drop database if exists ${DB}`).catch(() => {});
  await admin.end();
  rmSync(scratch, { recursive: true, force: true });
}
