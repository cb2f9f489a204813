// The first load of the public pages (issue 10): the JavaScript each page loads, and
// Lighthouse's performance score (mobile preset: simulated slow 4G and a 4× slower CPU).
// Run `npm run build` first, then `node bench/first-load.mjs [runs=5]`.
// Targets, method and results: bench/first-load.md.
/* global document, getComputedStyle -- the page.evaluate callbacks run in the page */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromiumArgs, chromiumPath, launchChromium } from '../e2e/support/chromium.mjs';
import { signInAsMarketer } from './support/sign-in.mjs';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 5);
// Each page with the heading that says it is shown.
const pages = [
  ['/login', 'Sign in with your Microsoft account'],
  ['/tools/qr-code-generator', 'QR code generator'],
];
const homeHeading = 'Welcome to Generative and enhanced marketing';
const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/**
 * Every script the page loads until the network is quiet (the entry, module preloads, the
 * route's lazy chunks), each body gzipped at the default level: what a compressing proxy
 * would send. The Fastify server itself sends them uncompressed.
 */
async function scriptWeight(browser, url, heading, contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, ...contextOptions });
  const page = await context.newPage();
  const bodies = new Map();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    bodies.set(
      response.url(),
      response.body().catch(() => Buffer.alloc(0)),
    );
  });
  const started = performance.now();
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  const headingMs = performance.now() - started;
  await page.waitForLoadState('networkidle');
  let raw = 0;
  let gzip = 0;
  for (const body of bodies.values()) {
    const bytes = await body;
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  await context.close();
  return { files: bodies.size, raw, gzip, headingMs };
}

const screenshotDir = path.join(root, 'bench/results/tmp/first-load');
// What the comparison looks at: the frame, headings, images and controls.
const layoutSelector = 'header, main, footer, h1, h2, img, button, input, textarea, a';

/**
 * The page before any JavaScript runs (the prerendered HTML and its CSS) against the page once
 * the app has taken it over: screenshots of both, and how far any element moved.
 */
async function firstPaint(browser, url, width) {
  const shots = {};
  const boxes = {};
  const name = `${new URL(url).pathname.split('/').pop()}-${width}`;
  for (const javaScriptEnabled of [false, true]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    if (javaScriptEnabled) {
      // React marks the container it hydrated.
      await page.waitForFunction(() =>
        Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')),
      );
      await page.waitForLoadState('networkidle');
    }
    const file = path.join(screenshotDir, `${name}-${javaScriptEnabled ? 'js' : 'no-js'}.png`);
    await page.screenshot({ path: file, fullPage: true });
    shots[javaScriptEnabled] = path.relative(root, file);
    boxes[javaScriptEnabled] = await page.evaluate(
      ([selector, brand]) => ({
        rects: [...document.querySelectorAll(selector)].map((el) => {
          const r = el.getBoundingClientRect();
          return [el.tagName, r.x, r.y, r.width, r.height];
        }),
        // The brand colour as a fill or a border anywhere in the page.
        brand: [...document.querySelectorAll('#root *')].some((el) => {
          const style = getComputedStyle(el);
          return [style.backgroundColor, style.borderTopColor, style.color].includes(brand);
        }),
      }),
      [layoutSelector, 'rgb(253, 81, 8)'],
    );
    await context.close();
  }
  const before = boxes.false;
  const after = boxes.true;
  let moved = before.rects.length === after.rects.length ? 0 : Infinity;
  before.rects.forEach((rect, i) => {
    const other = after.rects[i];
    if (!other || other[0] !== rect[0]) return void (moved = Infinity);
    for (let k = 1; k < 5; k++) moved = Math.max(moved, Math.abs(rect[k] - other[k]));
  });
  return { width, elements: before.rects.length, moved, brand: before.brand, shots };
}

/** One Lighthouse run (its default mobile form factor), performance only. */
function lighthouse(url) {
  const out = execFileSync(
    path.join(root, 'node_modules/.bin/lighthouse'),
    [
      url,
      '--only-categories=performance',
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      `--chrome-flags=${chromiumArgs.join(' ')}`,
    ],
    { env: { ...process.env, CHROME_PATH: chromiumPath }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(out.toString('utf8'));
  const ms = (id) => report.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((report.categories.performance.score ?? 0) * 100),
    fcp: ms('first-contentful-paint'),
    lcp: ms('largest-contentful-paint'),
    tbt: ms('total-blocking-time'),
    si: ms('speed-index'),
    cls: report.audits['cumulative-layout-shift']?.numericValue ?? NaN,
  };
}

const scratch = mkdtempSync(path.join(tmpdir(), 'gem-bench-first-load-'));
let server;
let browser;
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      GEM_DATA_DIR: path.join(scratch, 'data'),
      GEM_LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${base}/api/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (server.exitCode !== null || Date.now() > deadline) throw new Error('the GEM server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }

  browser = await launchChromium();
  mkdirSync(screenshotDir, { recursive: true });
  const paints = [];
  for (const [pathname] of pages) {
    for (const width of [390, 1440])
      paints.push({ pathname, ...(await firstPaint(browser, `${base}${pathname}`, width)) });
  }

  const rows = [];
  for (const [pathname, heading] of pages) {
    const url = `${base}${pathname}`;
    const weights = [];
    for (let i = 0; i < runs; i++) weights.push(await scriptWeight(browser, url, heading));
    const results = [];
    for (let i = 0; i < runs; i++) {
      const result = lighthouse(url);
      results.push(result);
      process.stderr.write(
        `${pathname} run ${i + 1}: score ${result.score}, LCP ${result.lcp.toFixed(0)} ms\n`,
      );
    }
    // The run with the median score; its paint figures are reported beside it.
    const median = [...results].sort((a, b) => a.score - b.score)[Math.floor(results.length / 2)];
    rows.push({ pathname, weights, results, median });
  }

  // The signed-in home page, opened cold by someone signed in (account and refresh token in
  // local storage, as after a reload): its JavaScript and the time to its heading. Each run
  // signs in anew, since a refresh token is good for one use.
  const signedIn = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    await signInAsMarketer(page);
    const storageState = await context.storageState();
    await context.close();
    signedIn.push(await scriptWeight(browser, `${base}/`, homeHeading, { storageState }));
  }

  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const middle = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const commit = execFileSync('git', ['log', '-1', '--format=%h %s'], { cwd: root }).toString().trim();
  const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root }).length > 0;
  console.log(
    `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.versions.node}, ` +
      `commit ${commit}${dirty ? ' (+ uncommitted changes)' : ''}, load average ` +
      `${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min)\n`,
  );
  console.log(
    '| page | JavaScript (gzip) | files | raw | heading shown (unthrottled, median) | Lighthouse scores | median | FCP | LCP | TBT | Speed Index | CLS |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const { pathname, weights, results, median } of rows) {
    const [weight] = weights;
    console.log(
      `| \`${pathname}\` | ${kb(weight.gzip)} | ${weight.files} | ${kb(weight.raw)} | ` +
        `${middle(weights.map((w) => w.headingMs)).toFixed(0)} ms | ` +
        `${results.map((r) => r.score).join(', ')} | **${median.score}** | ${s(median.fcp)} | ` +
        `${s(median.lcp)} | ${median.tbt.toFixed(0)} ms | ${s(median.si)} | ${median.cls.toFixed(3)} |`,
    );
  }
  const [home] = signedIn;
  console.log(
    `| \`/\` signed in | ${kb(home.gzip)} | ${home.files} | ${kb(home.raw)} | ` +
      `${middle(signedIn.map((w) => w.headingMs)).toFixed(0)} ms | – | – | – | – | – | – | – |`,
  );
  console.log(
    '\n| page | width | elements compared | largest move, no JS → app | #FD5108 before JS | screenshots |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const { pathname, width, elements, moved, brand, shots } of paints) {
    console.log(
      `| \`${pathname}\` | ${width} px | ${elements} | ${Number.isFinite(moved) ? `${moved.toFixed(1)} px` : 'elements differ'} | ` +
        `${brand ? 'yes' : 'no'} | \`${shots.false}\`, \`${shots.true}\` |`,
    );
  }
} finally {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(scratch, { recursive: true, force: true });
}
