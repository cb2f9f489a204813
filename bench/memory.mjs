// Resident memory of the built server: idle 30 s after /api/ready first answers 200, and after
// 1,000 mixed requests; on the embedded PGlite database (a new data folder, then the same
// folder reopened) and on a PostgreSQL server. Medians of 3 runs.
// Run `npm run build` first, then
//   node bench/memory.mjs [--runs 3] [--requests 1000] [--idle 30] [--modes pglite,pglite-reopen,postgres]
//                         [--postgres postgres://postgres@127.0.0.1:5432/test] [--server apps/server/dist/server.js]
//                         [--node-options=--liftoff-only] [--plain]
// The server starts as `npm start` starts it (scripts/server-runtime.mjs: Node flags and the
// environment's defaults); --plain starts it with neither, for a before/after.
// On the PostgreSQL server it creates (and at the end drops) its own database, gem_bench_memory.
// Results and how to read them: bench/memory.md.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs';
import { accessTokenFor } from './support/access-token.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    requests: { type: 'string', default: '1000' },
    idle: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '4' },
    modes: { type: 'string', default: 'pglite,pglite-reopen,postgres' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    server: { type: 'string', default: 'apps/server/dist/server.js' },
    'node-options': { type: 'string', default: '' },
    plain: { type: 'boolean', default: false },
  },
});
const runs = Number(opts.runs);
const requests = Number(opts.requests);
const idleMs = Number(opts.idle) * 1000;
const concurrency = Number(opts.concurrency);
const modes = opts.modes.split(',');
const serverEntry = path.resolve(root, opts.server);
const nodeOptions = [
  ...(opts.plain ? [] : SERVER_NODE_FLAGS),
  ...opts['node-options'].split(' ').filter(Boolean),
];
const processEnv = (vars) => (opts.plain ? vars : serverEnv(vars));
const DB = 'gem_bench_memory';
const benchDbUrl = Object.assign(new URL(opts.postgres), { pathname: `/${DB}` }).toString();

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const MiB = 1024 * 1024;

// Loaded into the server with --import: answers the bench's 'memoryUsage' message over the IPC
// channel, and lets the process exit as it would without the channel. It allocates nothing else.
const probe = `process.on('message', (m) => {
  if (m === 'memoryUsage') process.send({ memoryUsage: process.memoryUsage() });
});
process.channel?.unref();`;

/** VmRSS and VmHWM (peak) of a process, in MiB, from /proc/<pid>/status. */
function status(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/**
 * Resident size of WebAssembly linear memories (PGlite's heap), from /proc/<pid>/smaps: V8 maps
 * each wasm32 memory as a read-write region between large inaccessible guard reservations.
 */
function wasmResident(pid) {
  const maps = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ (\d+)/.exec(line);
    if (head) {
      maps.push({
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perms: head[3],
        anon: head[4] === '0',
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length > 0) maps[maps.length - 1].rss = Number(rss[1]);
  }
  const GiB = 1n << 30n;
  let kib = 0;
  for (let i = 1; i < maps.length - 1; i++) {
    const [before, m, after] = [maps[i - 1], maps[i], maps[i + 1]];
    const guard = (g) => g.perms === '---p' && g.anon && g.end - g.start >= GiB;
    if (m.perms === 'rw-p' && m.anon && before.end === m.start && m.end === after.start && guard(after)) {
      if (guard(before) || after.end - after.start >= 4n * GiB) kib += m.rss;
    }
  }
  return kib / 1024;
}

async function waitReady(base, server) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited ${server.exitCode}: ${server.stderr()}`);
    if (Date.now() > deadline) throw new Error(`not ready after 120 s: ${server.stderr()}`);
    const ok = await fetch(`${base}/api/ready`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await sleep(20);
  }
}

function startServer(env) {
  const child = spawn(
    process.execPath,
    [...nodeOptions, '--import', `data:text/javascript,${encodeURIComponent(probe)}`, serverEntry],
    { cwd: env.cwd, env: processEnv(env.vars), stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((r) => child.once('exit', r));
  return {
    child,
    exited,
    get exitCode() {
      return child.exitCode;
    },
    stderr: () => stderr.slice(-2000),
    memoryUsage: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no memoryUsage answer')), 10_000);
        child.once('message', (m) => {
          clearTimeout(timer);
          resolve(m.memoryUsage);
        });
        child.send('memoryUsage');
      }),
  };
}

/** The mix: the probes, the SPA's index.html and every asset it loads, and Market Research reads. */
async function requestMix(base, token) {
  const html = await (await fetch(`${base}/`)).text();
  const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css|svg|png|ico|webmanifest))"/g)].map(
    (m) => m[1],
  );
  const auth = { authorization: `Bearer ${token}` };
  const markets = await (await fetch(`${base}/api/markets`, { headers: auth })).json();
  const list = Array.isArray(markets) ? markets : (markets.markets ?? []);
  const area = list.find((m) => m.feedConfigured)?.slug ?? list[0]?.slug ?? 'technology';
  return [
    { url: '/api/health' },
    { url: '/api/ready' },
    { url: '/' },
    ...assets.map((url) => ({ url })),
    { url: '/api/markets', headers: auth },
    { url: `/api/markets/${area}`, headers: auth },
    { url: `/api/markets/${area}?limit=50`, headers: auth },
    { url: `/api/markets/${area}?q=market`, headers: auth },
  ];
}

async function load(base, mix) {
  const statuses = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const { url, headers } = mix[next++ % mix.length];
        const res = await fetch(`${base}${url}`, { headers });
        await res.arrayBuffer();
        const key = res.status === 200 ? '200' : `${res.status} ${url}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    }),
  );
  return { statuses, ms: performance.now() - started };
}

/** One start: idle figures 30 s after ready, then after the requests. */
async function measure(mode, dataDir) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const vars = {
    ...inherited,
    PORT: String(port),
    GEM_HOST: '127.0.0.1',
    GEM_LOG_LEVEL: 'warn',
    GEM_DATA_DIR: dataDir,
  };
  if (mode === 'postgres') vars.DATABASE_URL = benchDbUrl;
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const launched = performance.now();
  const server = startServer({ cwd: path.dirname(dataDir), vars });
  try {
    await waitReady(base, server);
    const readyMs = performance.now() - launched;
    await sleep(idleMs);
    const idle = { ...status(server.child.pid), wasm: wasmResident(server.child.pid) };
    idle.mem = await server.memoryUsage();
    let token = null;
    try {
      token = await accessTokenFor(base);
    } catch (err) {
      console.error(`  sign-in failed (${err.message}): /api/markets requests will answer 401`);
    }
    const mix = await requestMix(base, token);
    const { statuses, ms } = await load(base, mix);
    const busy = { ...status(server.child.pid), wasm: wasmResident(server.child.pid) };
    busy.mem = await server.memoryUsage();
    return { readyMs, idle, busy, statuses, loadMs: ms, mixSize: mix.length };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (n) => `${n.toFixed(0)} MB`;
const results = Object.fromEntries(modes.map((m) => [m, []]));
const scratch = mkdtempSync(path.join(tmpdir(), 'gem-bench-memory-'));
const admin = modes.includes('postgres') ? new pg.Client({ connectionString: opts.postgres }) : null;
const load0 = loadavg()[0];
try {
  await admin?.connect();
  for (let i = 0; i < runs; i++) {
    const dataDir = path.join(scratch, `run-${i}`, 'data');
    for (const mode of modes) {
      if (mode === 'postgres') {
        await admin.query(`drop database if exists ${DB}`);
        await admin.query(`create database ${DB}`);
      }
      // pglite makes a new data folder; pglite-reopen starts again on the folder pglite made.
      if (mode === 'pglite-reopen' && !modes.includes('pglite')) await measure('pglite', dataDir);
      const r = await measure(mode, mode === 'postgres' ? path.join(scratch, `pg-${i}`, 'data') : dataDir);
      results[mode].push(r);
      const m = (u) =>
        `heap ${(u.heapUsed / MiB).toFixed(0)}/${(u.heapTotal / MiB).toFixed(0)} ext ${(u.external / MiB).toFixed(0)}`;
      console.error(
        `run ${i + 1} ${mode}: ready ${r.readyMs.toFixed(0)} ms; idle ${mb(r.idle.rss)} (wasm ${mb(r.idle.wasm)}, ${m(r.idle.mem)}); ` +
          `after ${requests} requests ${mb(r.busy.rss)} (wasm ${mb(r.busy.wasm)}, ${m(r.busy.mem)}), peak ${mb(r.busy.peak)}; ` +
          `${(r.loadMs / 1000).toFixed(1)} s, statuses ${JSON.stringify(r.statuses)}`,
      );
    }
  }
} finally {
  if (admin) {
    await admin.query(`drop database if exists ${DB}`).catch(() => undefined);
    await admin.end();
  }
  rmSync(scratch, { recursive: true, force: true });
}

const load1 = loadavg()[0];
console.log(
  `${new Date().toISOString()}, ${cpus().length} cores, Node ${process.versions.node}, server \`${[...(opts.plain ? [] : Object.entries(serverEnv({})).map(([k, v]) => `${k}=${v}`)), 'node', ...nodeOptions, path.relative(root, serverEntry)].join(' ')}\`, ` +
    `load average ${load0.toFixed(1)} at the start, ${load1.toFixed(1)} at the end; medians of ${runs} runs; ` +
    `${requests} requests, ${concurrency} at a time\n`,
);
console.log(
  '| database | ready after | RSS idle (30 s after ready) | of which wasm heap | JS heap used / total | RSS after requests | of which wasm heap | peak RSS (VmHWM) | requests took |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const mode of modes) {
  const rs = results[mode];
  const med = (f) => median(rs.map(f));
  console.log(
    `| ${mode} | ${(med((r) => r.readyMs) / 1000).toFixed(1)} s | ${mb(med((r) => r.idle.rss))} | ${mb(med((r) => r.idle.wasm))} | ` +
      `${(med((r) => r.idle.mem.heapUsed) / MiB).toFixed(0)} / ${(med((r) => r.idle.mem.heapTotal) / MiB).toFixed(0)} MB | ` +
      `${mb(med((r) => r.busy.rss))} | ${mb(med((r) => r.busy.wasm))} | ${mb(med((r) => r.busy.peak))} | ${(med((r) => r.loadMs) / 1000).toFixed(1)} s |`,
  );
}
console.log(
  `\nAll runs (idle → after requests, MB): ${modes
    .map(
      (m) => `${m}: ${results[m].map((r) => `${r.idle.rss.toFixed(0)}→${r.busy.rss.toFixed(0)}`).join(', ')}`,
    )
    .join('; ')}`,
);
console.log(
  `Statuses of the requests: ${modes.map((m) => `${m} ${JSON.stringify(results[m][0]?.statuses)}`).join('; ')}`,
);
