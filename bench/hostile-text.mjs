// Hostile text: the times the tests do not assert (they count work instead, apps/server/test/
// text-work.ts). Runs GEM's TypeScript through tsx, no build needed:
//   npx tsx bench/hostile-text.mjs [--runs 7]
// 1. Reading crafted text on this thread: the feed parser (parse-feed.ts) and the paid-ads answer
//    reader (paid-ads.tool.ts), each at a length and at k times it. The reference is the
//    shorter text, timed in the same run: linear reading takes about k times as long, quadratic k².
// 2. A feed refresh of a 5 MiB hostile document (the real refresher, feed reader and parser worker,
//    an in-memory PGlite, the feed host of packages/test-servers on loopback) while an HTTP server
//    on this event loop is asked one request after another, as /api/health is: its answers' p50,
//    p99 and slowest, and the event loop's longest stall, against the same requests with nothing
//    else running (the reference, measured in the same run).
// Each figure is the median of --runs runs. Results: bench/hostile-text.md.
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pino from 'pino';
import { repeatedJsonFeed, startFeedServer } from '../packages/test-servers/src/feed-server.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { createFeedReader, FEED_MAX_BYTES } from '../apps/server/src/integrations/feeds/feed-reader.ts';
import { parseFeedDocument, rssAuthorName } from '../apps/server/src/integrations/feeds/parse-feed.ts';
import { createFeedRefresher } from '../apps/server/src/modules/market-research/feed-refresher.ts';
import { parseAdAnswer } from '../apps/server/src/modules/writing-tools/paid-ads/paid-ads.tool.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const RUNS = Number(opts.runs);
// Health requests of each idle reference.
const IDLE_REQUESTS = 300;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

// ---- 1. Reading crafted text ----------------------------------------------------------------

const X = { baseUrl: 'https://x.example/' };
const jsonDoc = (item) =>
  JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 't',
    items: [{ id: '1', url: 'https://x.example/1', ...item }],
  });
const adAnswer = (n) =>
  `${' \t'.repeat(n / 2)}x\n## Tekst reklamy${' '.repeat(n)}\n## Tekst reklamy\nKup teraz.`;

// Each case: what it is, its text at length n, the reader, n, and k. The lengths are long enough
// for the reading to outweigh what a call costs whatever its text.
const feed = (t) => parseFeedDocument(t, X);
const cases = [
  {
    what: 'feed: a content_text of "<a"s',
    make: (n) => jsonDoc({ title: 'T', content_text: '<a'.repeat(n) }),
    read: feed,
    n: 100_000,
    k: 4,
  },
  {
    what: 'feed: a content_html of "<img"s',
    make: (n) => jsonDoc({ title: 'T', content_html: '<img'.repeat(n) }),
    read: feed,
    n: 100_000,
    k: 4,
  },
  {
    what: 'feed: a title of "<a"s',
    make: (n) => jsonDoc({ title: '<a'.repeat(n) }),
    read: feed,
    n: 100_000,
    k: 4,
  },
  {
    what: 'feed: an author of "<a"s',
    make: (n) => jsonDoc({ title: 'T', authors: [{ name: '<a'.repeat(n) }] }),
    read: feed,
    n: 100_000,
    k: 4,
  },
  {
    what: 'feed: an RSS author of "("s',
    make: (n) => '('.repeat(n),
    read: rssAuthorName,
    n: 100_000,
    k: 4,
  },
  {
    what: 'feed: an RSS author of "@"s',
    make: (n) => `${'@'.repeat(n)} !`,
    read: rssAuthorName,
    n: 100_000,
    k: 4,
  },
  {
    what: 'paid ads: runs of blanks around heading marks',
    make: adAnswer,
    read: parseAdAnswer,
    n: 60_000,
    k: 10,
  },
];

/** Milliseconds `read` takes on `text`: enough repetitions for a few milliseconds, per call. */
function timeOf(read, text) {
  let reps = 1;
  for (;;) {
    const started = performance.now();
    for (let i = 0; i < reps; i++) read(text);
    const elapsed = performance.now() - started;
    if (elapsed >= 5) return elapsed / reps;
    reps *= 2;
  }
}

console.log(
  `Hostile text, ${new Date().toISOString()}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}, Node ${process.versions.node}, ${RUNS} runs\n`,
);
console.log('| text | n | at n (ms) | at k·n (ms) | k | ratio (linear k, quadratic k²) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const { what, make, read, n, k } of cases) {
  const [short, long] = [make(n), make(k * n)];
  read(short); // warm up: compiled before it is timed
  read(long);
  const shortTimes = [];
  const longTimes = [];
  const ratios = [];
  for (let run = 0; run < RUNS; run++) {
    const a = timeOf(read, short);
    const b = timeOf(read, long);
    shortTimes.push(a);
    longTimes.push(b);
    ratios.push(b / a);
  }
  console.log(
    `| ${what} | ${n.toLocaleString('en')} | ${ms(median(shortTimes))} | ${ms(median(longTimes))} | ${k} | ${median(ratios).toFixed(1)} |`,
  );
}

// ---- 2. A hostile feed refresh while the server answers --------------------------------------

const health = createServer((_req, res) => res.end('{"status":"ok"}'));
await new Promise((resolve) => health.listen(0, '127.0.0.1', resolve));
const healthUrl = `http://127.0.0.1:${health.address().port}/api/health`;

/** Asks the server one request after another until `done()`; each answer's milliseconds, and the loop's longest stall. */
async function polled(done) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const latencies = [];
  do {
    const started = performance.now();
    const res = await fetch(healthUrl);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
  } while (!done());
  delay.disable();
  return { latencies, stallMs: delay.max / 1e6 };
}

const feeds = await startFeedServer();
const database = await openDatabase(
  { kind: 'pglite', client: await PGlite.create() },
  path.join(root, 'apps/server/drizzle'),
);
const reader = createFeedReader({
  samplesDir: path.join(root, 'apps/server/feed-samples'),
  allowPrivateHosts: true,
});
const log = pino({ level: 'silent' });
const hostile = [
  ['a content_text of "<a"s', 'content_text', '<a'],
  ['a content_html of "<img"s', 'content_html', '<img'],
];
for (const [, field, unit] of hostile) {
  feeds.set(`/${field}`, {
    body: repeatedJsonFeed(field, unit, FEED_MAX_BYTES),
    contentType: 'application/feed+json',
  });
}
// The parser's worker and the HTTP read started once before anything is measured.
feeds.set('/warm-up', {
  body: repeatedJsonFeed('content_text', 'x ', 10_000),
  contentType: 'application/feed+json',
});
await createFeedRefresher({
  db: database.db,
  sources: [{ key: 'esg', url: feeds.url('/warm-up') }],
  reader,
  refreshMinutes: 15,
  retentionDays: 90,
  log,
}).refresh();

const rows = [];
for (const [what, field] of hostile) {
  const idle = { p50: [], p99: [], stall: [] };
  const busy = { p50: [], p99: [], max: [], stall: [], refresh: [] };
  for (let run = 0; run < RUNS; run++) {
    let n = 0;
    const reference = await polled(() => ++n >= IDLE_REQUESTS);
    idle.p50.push(percentile(reference.latencies, 50));
    idle.p99.push(percentile(reference.latencies, 99));
    idle.stall.push(reference.stallMs);
    // A new feed each run: every refresh reads, parses and stores the document as new.
    const key = `bench-${field}-${run}`;
    const source = { key, url: feeds.url(`/${field}`) };
    const refresher = createFeedRefresher({
      db: database.db,
      sources: [source],
      reader,
      refreshMinutes: 15,
      retentionDays: 90,
      log,
    });
    let finished = false;
    const started = performance.now();
    const refreshing = refresher.refresh().finally(() => {
      finished = true;
    });
    const during = await polled(() => finished);
    const [result] = await refreshing;
    if (result.status !== 'updated')
      throw new Error(`the refresh did not read the document: ${JSON.stringify(result)}`);
    busy.refresh.push(performance.now() - started);
    busy.p50.push(percentile(during.latencies, 50));
    busy.p99.push(percentile(during.latencies, 99));
    busy.max.push(Math.max(...during.latencies));
    busy.stall.push(during.stallMs);
  }
  rows.push([what, idle, busy]);
}

console.log(
  '\n| 5 MiB document | refresh (ms) | health p50 idle → during (ms) | p99 idle → during (ms) | p99 ratio | slowest during (ms) | loop stall idle → during (ms) |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [what, idle, busy] of rows) {
  const [p99Idle, p99Busy] = [median(idle.p99), median(busy.p99)];
  console.log(
    `| ${what} | ${ms(median(busy.refresh))} | ${ms(median(idle.p50))} → ${ms(median(busy.p50))} | ${ms(p99Idle)} → ${ms(p99Busy)} | ${(p99Busy / p99Idle).toFixed(1)} | ${ms(median(busy.max))} | ${ms(median(idle.stall))} → ${ms(median(busy.stall))} |`,
  );
}

await feeds.close();
await database.close();
await new Promise((resolve) => health.close(resolve));
