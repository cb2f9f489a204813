// The cost of the access gate: an authenticated JSON read (GET /api/markets) and the access
// check the SPA makes on every navigation (GET /api/identity/check-app-access), against a bare
// Fastify hello-world measured in the same run, with autocannon (50 connections).
// Run `npm run build` first (this script builds nothing), then
//   node bench/access-gate.mjs [--db pglite|postgres|both] [--duration 15] [--warmup 5]
//        [--runs 3] [--connections 50] [--pg-url postgres://postgres@127.0.0.1:5432/test]
//        [--cpu-prof <dir>] [--server apps/server/dist/server.js [--server <another build>]]
// With PostgreSQL it creates (and at the end drops) its own database, gem_access_bench (one per
// server: gem_access_bench_2, …). Given --server twice or more, it starts every build at once
// and measures their targets interleaved, against the same bare server: a before and after on
// the same machine at the same time. A --server may carry Node flags after the path
// ('apps/server/dist/server.js --max-semi-space-size=8'): that build started with them.
// --cpu-prof starts GEM and the bare server under `node --cpu-prof`, writes the profiles to <dir>
// and prints where each target's time went (wall-clock samples of the main thread). Every run
// also reports the server's CPU time per request (all threads, from /proc; Linux).
// GEM and the bare server both start as `npm start` starts GEM (scripts/server-runtime.mjs).
// Results and how to read them: bench/access-gate.md.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { SourceMap } from 'node:module';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs';
import { accessTokenFor } from './support/access-token.mjs';
import { cpuSeconds } from './support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    runs: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    'cpu-prof': { type: 'string' },
    // Other builds of the server to measure (a what-if), instead of apps/server/dist/server.js.
    server: { type: 'string', multiple: true, default: ['apps/server/dist/server.js'] },
  },
});
const duration = Number(opts.duration);
const warmup = Number(opts.warmup);
const runs = Number(opts.runs);
const connections = Number(opts.connections);
const DB = 'gem_access_bench';
const databases = opts.db === 'both' ? ['pglite', 'postgres'] : [opts.db];

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
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

// ---- The reference: a bare Fastify hello-world in its own process, as GEM is.

const bareSource = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// An orderly exit, so that --cpu-prof writes its profile.
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

function startBare(port, profDir) {
  const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, ...prof, '--input-type=module', '-e', bareSource], {
    cwd: root,
    env: serverEnv({ PATH: process.env.PATH, PORT: String(port) }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

// ---- Load.

function cannon(url, headers, seconds) {
  return autocannon({ url, connections, duration: seconds, headers });
}

/**
 * One measurement: requests per second and latency percentiles (ms). A non-2xx answer fails it
 * (a wrong token measures the refusal); errors and timeouts (10 s, a swamped machine) are counted.
 */
async function measure(url, headers, seconds) {
  const r = await cannon(url, headers, seconds);
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} answers were not 2xx`);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    failed: r.errors + r.timeouts,
  };
}

/**
 * CPU time (user + system, all threads) a process has used so far, in µs, from /proc/<pid>/stat.
 * Per request it is the server's own cost, whatever else the machine runs; the V8 profile
 * (--cpu-prof) samples wall-clock time on the main thread, so time the server spends waiting for
 * a core shows up there in whatever it was doing (mostly the socket write that woke the client).
 */
const cpuMicros = (pid) => cpuSeconds(pid) * 1e6;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

// ---- The CPU profile, per target: each sample goes to the category of the nearest frame (from the
// leaf up) that belongs to a known package or GEM source file; Node's own frames (http, streams,
// crypto) count for the first such caller, or as "Node: HTTP and the rest" when there is none.

const categories = [
  ['token verification', /node_modules\/jose\/|integrations\/oidc\/(token-verifier|key-set)/],
  ['access decision (GEM)', /modules\/identity\/|plugins\/auth\.ts/],
  ['database', /node_modules\/(pg|pg-[a-z]+|postgres-[a-z]+|drizzle-orm|@electric-sql)\//],
  [
    'logging',
    /node_modules\/(pino|pino-std-serializers|sonic-boom|@pinojs\/[a-z-]+|fast-redact)\/|lib\/logger\.ts|fastify\/lib\/logger-factory/,
  ],
  ['response serialization (zod)', /node_modules\/(zod|fastify-type-provider-zod)\//],
  ['security headers (helmet)', /node_modules\/(@fastify\/helmet|helmet)\//],
  ['compression plugin', /node_modules\/@fastify\/compress\//],
  ['Fastify', /node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify\/[a-z-]+)\//],
  ['GEM (other)', /\/src\//],
];
// Native socket writes: on loopback the kernel does most of the delivery in the writer's call.
const socketWrites = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String']);

function breakdown(profDir, targets, windows, server = opts.server[0]) {
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(path.join(profDir, file), 'utf8'));
  const bundle = path.resolve(root, server.split(' ')[0]);
  const map = existsSync(`${bundle}.map`)
    ? new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')))
    : undefined;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const where = (frame) => {
    if (!map || frame.url !== pathToFileURL(bundle).href) return frame.url;
    return map.findEntry(frame.lineNumber, frame.columnNumber)?.originalSource ?? frame.url;
  };
  const memo = new Map();
  function categoryOf(id) {
    if (memo.has(id)) return memo.get(id);
    let name;
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(garbage collector)') name = 'garbage collection';
    else if (callFrame.functionName === '(idle)') name = 'idle';
    else {
      for (let at = id; at !== undefined && !name; at = parent.get(at)) {
        const url = where(byId.get(at).callFrame);
        name = categories.find(([, re]) => re.test(url))?.[0];
      }
      if ((name === undefined || name === 'Fastify') && socketWrites.has(callFrame.functionName)) {
        name = 'socket writes (kernel)';
      }
      name ??= 'Node: HTTP parsing, streams, the rest';
    }
    memo.set(id, name);
    return name;
  }
  const out = [];
  let t = profile.startTime;
  const samples = profile.samples.map((id, i) => {
    t += profile.timeDeltas[i];
    return [t, id];
  });
  for (const [i, [label]] of targets.entries()) {
    const counts = new Map();
    let busy = 0;
    let requests = 0;
    let micros = 0;
    for (const [from, to, total] of windows[i]) {
      requests += total;
      micros += to - from;
      for (const [at, id] of samples) {
        if (at < from || at > to) continue;
        const name = categoryOf(id);
        counts.set(name, (counts.get(name) ?? 0) + 1);
        if (name !== 'idle') busy += 1;
      }
    }
    const rows = [...counts].filter(([n]) => n !== 'idle').sort((a, b) => b[1] - a[1]);
    // Busy µs of GEM's main thread per request: its share of the window's samples.
    const all = [...counts.values()].reduce((a, b) => a + b, 0);
    const perRequest = ((busy / all) * micros) / requests;
    out.push({
      label,
      perRequest,
      idle: (counts.get('idle') ?? 0) / all,
      rows: rows.map(([n, c]) => [n, c / busy, (c / busy) * perRequest]),
    });
  }
  return out;
}

async function benchDatabase(kind, scratch) {
  mkdirSync(scratch, { recursive: true });
  const feedsFile = path.join(scratch, 'feeds.json');
  // One feed GEM may not read (loopback, private hosts not allowed): the refresh fails at once
  // and no background work runs during the measurement.
  writeFileSync(feedsFile, JSON.stringify({ technology: 'http://127.0.0.1:9/bench-feed.xml' }));
  const servers = opts.server;
  const named = servers.length > 1;
  const dbName = (i) => (i === 0 ? DB : `${DB}_${i + 1}`);
  let admin;
  if (kind === 'postgres') {
    admin = new pg.Client({ connectionString: opts['pg-url'] });
    await admin.connect();
    for (const i of servers.keys()) {
      await admin.query(`drop database if exists ${dbName(i)}`);
      await admin.query(`create database ${dbName(i)}`);
    }
  }
  const profRoot = opts['cpu-prof'] ? path.resolve(opts['cpu-prof'], kind) : undefined;
  const gems = [];
  let bare;
  try {
    for (const [i, server] of servers.entries()) {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const env = {
        PATH: process.env.PATH,
        // Not production: production refuses the demo accounts this script signs in with.
        NODE_ENV: 'test',
        PORT: String(port),
        GEM_HOST: '127.0.0.1',
        GEM_PUBLIC_URL: origin,
        GEM_FEEDS_FILE: feedsFile,
        // The production level: request logs are part of what is measured.
        GEM_LOG_LEVEL: 'info',
      };
      if (kind === 'postgres') {
        env.DATABASE_URL = Object.assign(new URL(opts['pg-url']), { pathname: `/${dbName(i)}` }).toString();
      } else {
        env.GEM_DATA_DIR = path.join(scratch, `data-${i}`);
      }
      const profDir = profRoot && (named ? `${profRoot}-${i + 1}` : profRoot);
      const logFile = path.join(scratch, `gem-${kind}-${i}.log`);
      const log = createWriteStream(logFile);
      await new Promise((r) => log.once('open', r));
      const [entry, ...nodeFlags] = server.split(' ').filter(Boolean);
      const child = spawn(
        process.execPath,
        [
          ...SERVER_NODE_FLAGS,
          ...nodeFlags,
          ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
          path.resolve(root, entry),
        ],
        { cwd: root, env: serverEnv(env), stdio: ['ignore', log, 'inherit'] },
      );
      gems.push({
        server,
        origin,
        child,
        log,
        logFile,
        profDir,
        label: named ? ` (${i + 1}: ${server})` : '',
      });
    }
    const barePort = await freePort();
    bare = startBare(barePort, profRoot && `${profRoot}-bare`);
    for (const gem of gems) await waitReady(`${gem.origin}/api/ready`, gem.child);
    await waitReady(`http://127.0.0.1:${barePort}/`, bare);

    const targets = [['bare Fastify hello-world', `http://127.0.0.1:${barePort}/`, {}, undefined]];
    for (const gem of gems) {
      const token = await accessTokenFor(gem.origin);
      const auth = { authorization: `Bearer ${token}` };
      const check = await fetch(`${gem.origin}/api/identity/check-app-access`, { headers: auth });
      const checked = await check.json();
      if (!checked.hasAccess) throw new Error(`the marketer has no access: ${JSON.stringify(checked)}`);
      targets.push([`GET /api/markets${gem.label}`, `${gem.origin}/api/markets`, auth, gem]);
    }
    for (const gem of gems) {
      const auth = targets.find((t) => t[3] === gem)[2];
      targets.push([
        `GET /api/identity/check-app-access${gem.label}`,
        `${gem.origin}/api/identity/check-app-access`,
        auth,
        gem,
      ]);
    }
    for (const [, url, headers] of targets) await measure(url, headers, warmup);
    for (const gem of gems) gem.logBefore = readFileSync(gem.logFile).length;
    const results = targets.map(() => []);
    // When each target was under load, on the monotonic clock the CPU profile uses (µs).
    const windows = targets.map(() => []);
    const micros = () => Number(process.hrtime.bigint() / 1000n);
    for (let run = 0; run < runs; run += 1) {
      for (const [i, [, url, headers, gem]] of targets.entries()) {
        const from = micros();
        const pid = gem ? gem.child.pid : bare.pid;
        const cpuBefore = cpuMicros(pid);
        const m = await measure(url, headers, duration);
        m.cpuPerRequest = (cpuMicros(pid) - cpuBefore) / m.total;
        windows[i].push([from, micros(), m.total]);
        results[i].push(m);
        if (gem) gem.requests = (gem.requests ?? 0) + m.total;
      }
    }
    const logs = gems.map((gem) => {
      // Counted in the bytes: a long run's log is larger than the longest string V8 makes.
      const logged = readFileSync(gem.logFile).subarray(gem.logBefore);
      let lines = 0;
      for (let at = logged.indexOf(10); at !== -1; at = logged.indexOf(10, at + 1)) lines += 1;
      return { label: gem.label, lines: lines / gem.requests, bytes: logged.length / gem.requests };
    });
    const report = { kind, targets, results, logs };
    for (const gem of gems) await stop(gem.child);
    await stop(bare);
    if (profRoot) {
      report.profile = breakdown(`${profRoot}-bare`, targets.slice(0, 1), windows.slice(0, 1));
      for (const gem of gems) {
        const mine = [...targets.keys()].filter((i) => targets[i][3] === gem);
        report.profile.push(
          ...breakdown(
            gem.profDir,
            mine.map((i) => targets[i]),
            mine.map((i) => windows[i]),
            gem.server,
          ),
        );
      }
    }
    return report;
  } finally {
    await stop(bare);
    for (const gem of gems) {
      await stop(gem.child);
      gem.log.end();
    }
    if (admin) {
      for (const i of servers.keys())
        await admin.query(`drop database if exists ${dbName(i)}`).catch(() => {});
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
const scratch = mkdtempSync(path.join(tmpdir(), 'gem-bench-access-'));
const reports = [];
try {
  for (const kind of databases) reports.push(await benchDatabase(kind, path.join(scratch, kind)));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const fmt = (n) => n.toFixed(2);
console.log(
  `${new Date().toISOString()}, commit ${commit}, ${cpus().length} cores, Node ${process.versions.node}, load average ${loadBefore.map(fmt).join(' ')} before and ${loadavg().map(fmt).join(' ')} after; autocannon ${connections} connections, ${warmup} s warm-up per target, then ${runs} runs × ${duration} s per target (interleaved); medians\n`,
);
console.log(
  '| database | target | req/s | ratio to bare (same run) | p50 ms | p99 ms | p99 of each run (ms) | server CPU µs per request | errors, timeouts |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const { kind, targets, results } of reports) {
  for (const [i, [label]] of targets.entries()) {
    const rows = results[i];
    const ratios = rows.map((m, run) => m.rps / results[0][run].rps);
    console.log(
      `| ${kind} | ${label} | ${median(rows.map((m) => m.rps)).toFixed(0)} | ${i === 0 ? '1' : `${(median(ratios) * 100).toFixed(0)}%`} | ${median(rows.map((m) => m.p50)).toFixed(0)} | ${median(rows.map((m) => m.p99)).toFixed(0)} | ${rows.map((m) => m.p99).join(', ')} | ${median(rows.map((m) => m.cpuPerRequest)).toFixed(0)} | ${rows.reduce((n, m) => n + m.failed, 0)} |`,
    );
  }
}
console.log('');
for (const { kind, logs } of reports) {
  for (const { label, lines, bytes } of logs) {
    console.log(
      `- ${kind}${label}: ${lines.toFixed(2)} log lines (${bytes.toFixed(0)} bytes) per GEM request at info level`,
    );
  }
}
for (const { kind, profile } of reports) {
  for (const { label, perRequest, idle, rows } of profile ?? []) {
    console.log(
      `\nCPU profile, ${kind}, ${label}: ${perRequest.toFixed(0)} µs of the server's main thread per request, idle ${(idle * 100).toFixed(0)}% of the time\n`,
    );
    console.log('| where | share of busy time | µs per request |');
    console.log('|---|---|---|');
    for (const [name, share, us] of rows) {
      console.log(`| ${name} | ${(share * 100).toFixed(1)}% | ${us.toFixed(0)} |`);
    }
  }
}
if (opts['cpu-prof']) console.log(`\nCPU profiles of GEM: ${path.resolve(opts['cpu-prof'])}/<database>/`);
