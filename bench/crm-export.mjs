// The campaign audience builder's CSV export on the embedded demo CRM (issue 25): four parallel
// exports of a whole report (new prospects of the newest campaign, no segment: about 10,000
// contacts) while GET /api/health is polled one request at a time, against the same polling
// with no export running (the reference, measured in the same run). Also the event loop's
// longest stall during the exports (prom-client's monitorEventLoopDelay, read from GEM's
// metrics port before and after: its histogram starts again at each scrape), and the server's CPU
// time during the exports (all threads, /proc; Linux).
// Run `npm run build` first (this script builds nothing), then
//   node bench/crm-export.mjs [--db pglite|postgres|both] [--runs 5] [--exports 4]
//        [--pg-url postgres://postgres@127.0.0.1:5432/postgres]
//        [--server apps/server/dist/server.js [--server <another build>]]
// Two users export (the demo marketer, and the demo outsider let in by GEM_ACCESS_ALLOWED_DOMAINS),
// half the exports each: GEM allows a user two at once. On PostgreSQL it creates (and at the end
// drops) its own database, gem_bench_export (gem_bench_export_2, … for more builds). Given
// --server twice or more, it starts every build at once and measures them interleaved: a before
// and after on the same machine at the same time. Results: bench/crm-export.md.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs';
import { accessTokenFor } from './support/access-token.mjs';
import { cpuSeconds } from './support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '5' },
    exports: { type: 'string', default: '4' },
    // Health requests in the idle reference of each run.
    'idle-requests': { type: 'string', default: '200' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    server: { type: 'string', multiple: true, default: ['apps/server/dist/server.js'] },
  },
});
const RUNS = Number(opts.runs);
const EXPORTS = Number(opts.exports);
const IDLE_REQUESTS = Number(opts['idle-requests']);
const DB = 'gem_bench_export';
const databases = opts.db === 'both' ? ['pglite', 'postgres'] : [opts.db];
const USERS = [
  ['marketer@example.com', 'marketer'],
  ['outsider@example.com', 'outsider'],
];
// Between two health requests: a poll, not a load.
const POLL_GAP_MS = 5;

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

async function waitReady(url, child) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(url)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${url} did not become ready`);
    await sleep(100);
  }
}

async function stop(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

/** One health request's latency in ms (a non-200 fails the run). */
async function health(origin) {
  const started = performance.now();
  const res = await fetch(`${origin}/api/health`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/api/health answered ${res.status}`);
  return performance.now() - started;
}

/** Polls /api/health one request at a time until `until` settles; the latencies in ms. */
async function pollHealth(origin, until) {
  let done = false;
  until.finally(() => (done = true)).catch(() => {});
  const latencies = [];
  while (!done) {
    latencies.push(await health(origin));
    await sleep(POLL_GAP_MS);
  }
  return latencies;
}

/** The longest event loop stall since the last scrape, in ms (nodejs_eventloop_lag_max_seconds). */
async function loopMaxMs(metricsOrigin) {
  const text = await (await fetch(`${metricsOrigin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('nodejs_eventloop_lag_max_seconds '));
  return line ? Number(line.split(' ')[1]) * 1000 : NaN;
}

/** One whole export: its status, rows (lines after the header) and time. */
async function exportCsv(gem, user) {
  const started = performance.now();
  const res = await fetch(`${gem.origin}/api/sf/report.csv?${gem.reportQuery}`, {
    headers: { authorization: `Bearer ${gem.tokens[user]}` },
  });
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) return { status: res.status, rows: 0, ms, body };
  const lines = body.trimEnd().split('\r\n').length;
  return { status: res.status, rows: lines - 1, ms };
}

async function startGem(kind, scratch, server, i) {
  const port = await freePort();
  const metricsPort = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const feedsFile = path.join(scratch, 'feeds.json');
  const env = {
    PATH: process.env.PATH,
    // Not production: production refuses the demo accounts this script signs in with.
    NODE_ENV: 'test',
    PORT: String(port),
    GEM_HOST: '127.0.0.1',
    GEM_PUBLIC_URL: origin,
    GEM_FEEDS_FILE: feedsFile,
    GEM_METRICS_PORT: String(metricsPort),
    // The second user: the demo outsider, let in by its domain.
    GEM_ACCESS_ALLOWED_DOMAINS: 'example.com',
    GEM_LOG_LEVEL: 'warn',
  };
  if (kind === 'postgres') {
    env.DATABASE_URL = Object.assign(new URL(opts['pg-url']), {
      pathname: `/${i === 0 ? DB : `${DB}_${i + 1}`}`,
    }).toString();
  } else {
    env.GEM_DATA_DIR = path.join(scratch, `data-${i}`);
  }
  const log = createWriteStream(path.join(scratch, `gem-${kind}-${i}.log`));
  await new Promise((r) => log.once('open', r));
  const [entry, ...nodeFlags] = server.split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeFlags, path.resolve(root, entry)], {
    cwd: root,
    env: serverEnv(env),
    stdio: ['ignore', log, 'inherit'],
  });
  await waitReady(`${origin}/api/ready`, child);
  const tokens = {};
  for (const [email, password] of USERS) tokens[email] = await accessTokenFor(origin, email, password);
  const first = USERS[0][0];
  const campaigns = await (
    await fetch(`${origin}/api/sf/campaigns`, { headers: { authorization: `Bearer ${tokens[first]}` } })
  ).json();
  const campaignId = campaigns.campaigns[0].id;
  const gem = {
    server,
    child,
    log,
    origin,
    metricsOrigin: `http://127.0.0.1:${metricsPort}`,
    tokens,
    reportQuery: new URLSearchParams({ type: 'new-prospects', campaignId }).toString(),
  };
  // Warm-up: the first export seeds the demo CRM; one export per user, then some health.
  for (const [email] of USERS) {
    const r = await exportCsv(gem, email);
    if (r.status !== 200) throw new Error(`warm-up export answered ${r.status}: ${r.body}`);
    gem.rows = r.rows;
  }
  for (let n = 0; n < 50; n += 1) await health(origin);
  return gem;
}

async function measureRun(gem) {
  const idle = [];
  for (let n = 0; n < IDLE_REQUESTS; n += 1) {
    idle.push(await health(gem.origin));
    await sleep(POLL_GAP_MS);
  }
  await loopMaxMs(gem.metricsOrigin);
  const cpuBefore = cpuSeconds(gem.child.pid);
  const started = performance.now();
  const exports = Promise.all(
    Array.from({ length: EXPORTS }, (_, n) => exportCsv(gem, USERS[n % USERS.length][0])),
  );
  const [busy, results] = await Promise.all([pollHealth(gem.origin, exports), exports]);
  const wall = performance.now() - started;
  const cpu = cpuSeconds(gem.child.pid) - cpuBefore;
  const loopMax = await loopMaxMs(gem.metricsOrigin);
  return {
    idleP50: percentile(idle, 50),
    idleP99: percentile(idle, 99),
    busyP50: percentile(busy, 50),
    busyP99: percentile(busy, 99),
    busyMax: Math.max(...busy),
    healthRequests: busy.length,
    loopMax,
    wall,
    cpu,
    exportMs: median(results.map((r) => r.ms)),
    statuses: results.map((r) => r.status),
    rows: results.map((r) => r.rows),
  };
}

async function benchDatabase(kind, scratch) {
  mkdirSync(scratch, { recursive: true });
  // One feed GEM may not read (loopback, private hosts not allowed): the refresh fails at once
  // and no background work runs during the measurement.
  writeFileSync(
    path.join(scratch, 'feeds.json'),
    JSON.stringify({ technology: 'http://127.0.0.1:9/bench-feed.xml' }),
  );
  const servers = opts.server;
  let admin;
  if (kind === 'postgres') {
    admin = new pg.Client({ connectionString: opts['pg-url'] });
    await admin.connect();
    for (const i of servers.keys()) {
      const name = i === 0 ? DB : `${DB}_${i + 1}`;
      await admin.query(`drop database if exists ${name}`);
      await admin.query(`create database ${name}`);
    }
  }
  const gems = [];
  try {
    for (const [i, server] of servers.entries()) gems.push(await startGem(kind, scratch, server, i));
    const runs = gems.map(() => []);
    for (let run = 0; run < RUNS; run += 1) {
      for (const [i, gem] of gems.entries()) runs[i].push(await measureRun(gem));
    }
    return gems.map((gem, i) => ({ kind, server: gem.server, rows: gem.rows, runs: runs[i] }));
  } finally {
    for (const gem of gems) {
      await stop(gem.child);
      gem.log.end();
    }
    if (admin) {
      for (const i of servers.keys()) {
        await admin.query(`drop database if exists ${i === 0 ? DB : `${DB}_${i + 1}`}`).catch(() => {});
      }
      await admin.end();
    }
  }
}

const commit = await new Promise((resolve) => {
  const git = spawn('git', ['rev-parse', '--short', 'HEAD'], { cwd: root });
  let out = '';
  git.stdout.on('data', (d) => (out += d));
  git.on('exit', () => resolve(out.trim()));
});
const loadBefore = loadavg();
const scratch = mkdtempSync(path.join(tmpdir(), 'gem-bench-export-'));
const reports = [];
try {
  for (const kind of databases) reports.push(...(await benchDatabase(kind, path.join(scratch, kind))));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const fmt = (n) => n.toFixed(2);
const ms = (n) => n.toFixed(0);
console.log(
  `${new Date().toISOString()}, commit ${commit}, ${cpus().length} cores, Node ${process.versions.node}, load average ${loadBefore.map(fmt).join(' ')} before and ${loadavg().map(fmt).join(' ')} after; ${EXPORTS} exports at once (${USERS.length} users), ${RUNS} runs, medians of the runs\n`,
);
console.log(
  '| database | server | rows an export | health p50 idle → exporting (ms) | health p99 idle → exporting (ms) | p99 ratio | health max (ms) | event loop max stall (ms) | exports’ wall time (ms) | server CPU (s) | one export (ms) | statuses |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const { kind, server, rows, runs } of reports) {
  const m = (key) => median(runs.map((r) => r[key]));
  const ratio = median(runs.map((r) => r.busyP99 / r.idleP99));
  const statuses = [...new Set(runs.flatMap((r) => r.statuses))].join(', ');
  console.log(
    `| ${kind} | ${server} | ${rows} | ${fmt(m('idleP50'))} → ${fmt(m('busyP50'))} | ${fmt(m('idleP99'))} → ${ms(m('busyP99'))} | ${ratio.toFixed(1)}× | ${ms(m('busyMax'))} | ${ms(m('loopMax'))} | ${ms(m('wall'))} | ${m('cpu').toFixed(1)} | ${ms(m('exportMs'))} | ${statuses} |`,
  );
}
console.log('');
for (const { kind, server, runs } of reports) {
  console.log(
    `- ${kind}, ${server}: health p99 of each run while exporting ${runs.map((r) => ms(r.busyP99)).join(', ')} ms; loop max ${runs.map((r) => ms(r.loopMax)).join(', ')} ms; health requests during the exports ${runs.map((r) => r.healthRequests).join(', ')}; rows ${[...new Set(runs.flatMap((r) => r.rows))].join(', ')}`,
  );
}
