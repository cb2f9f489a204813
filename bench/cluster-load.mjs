// Load through nginx against one and then two GEM instances on PostgreSQL (issue 15), started
// with scripts/cluster.mjs (a private PostgreSQL in a temporary folder, Debian's nginx).
// Run `npm run build` first (this script builds nothing), then
//   flock /tmp/gem-heavy.lock npx tsx bench/cluster-load.mjs [--duration 120] [--connections 50]
//        [--ai-connections 10] [--instances 1,2] [--cpus-per-instance 0.5]
// Two scenarios per cluster size, each `--duration` seconds with autocannon:
//   - pages and reads, `--connections` at once, cycling through: the signed-in home page (the
//     HTML frame), the access check, the market list, a feed page, a feed page with a search, a
//     competitor search, and the recent outputs of a writing tool;
//   - the AI endpoint (the teaser generator, streamed) against the local OpenAI-compatible test
//     server writing about 50 tokens a second, `--ai-connections` at once.
// `--cpus-per-instance N` caps each GEM instance at N cores (a cgroup CPU quota, as a container's
// CPU limit would), so that one instance against two measures what a second instance adds when
// each has its own CPU, not two instances splitting the same cores with nginx, PostgreSQL and
// autocannon (this machine has two). Without it the instances take what they can get.
// Every answer's latency is recorded (p50, p95, p99 exact, from all of them); non-2xx answers and
// socket errors are counted. Memory: instance 1's resident size idle and after the runs.
// Results and how to read them: bench/README.md, "Several instances behind nginx".
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startOpenAiServer } from '@gem/test-servers/openai-server';
import { down, up } from '../scripts/cluster.mjs';
import { accessTokenFor } from './support/access-token.mjs';
import { limitCpu, removeStaleGroups } from './support/cpu-limit.mjs';
import { cpuSeconds } from './support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '120' },
    connections: { type: 'string', default: '50' },
    'ai-connections': { type: 'string', default: '10' },
    instances: { type: 'string', default: '1,2' },
    'cpus-per-instance': { type: 'string' },
  },
});
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const aiConnections = Number(opts['ai-connections']);
const sizes = opts.instances.split(',').map(Number);
const cpusPerInstance = opts['cpus-per-instance'] ? Number(opts['cpus-per-instance']) : undefined;
if (cpusPerInstance !== undefined && !(cpusPerInstance > 0))
  throw new Error('--cpus-per-instance takes a number > 0');

const rssMiB = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run({ url, requests, conns, seconds }) {
  const latencies = [];
  const statuses = {};
  const instance = autocannon({ url, connections: conns, duration: seconds, requests, timeout: 30 });
  instance.on('response', (_client, status, _bytes, ms) => {
    latencies.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const total = latencies.length;
  return {
    requests: total,
    rps: total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    non2xx: result.non2xx,
    fiveXx: Object.entries(statuses)
      .filter(([s]) => Number(s) >= 500)
      .reduce((n, [, c]) => n + c, 0),
    errors: result.errors + result.timeouts,
    statuses,
  };
}

async function measure(instances, ai) {
  const cluster = await up({
    dir: path.join(root, `bench/results/tmp/cluster-${instances}`),
    instances,
    log: () => undefined,
    env: {
      GEM_LOG_LEVEL: 'warn',
      GEM_AI_PROVIDER: 'openai-compatible',
      GEM_AI_BASE_URL: ai.url,
      GEM_AI_MODEL: 'gem-test-model',
      GEM_AI_API_KEY: 'bench-key',
      // The load is one user's: the per-user limits would refuse most of it.
      GEM_AI_RATE_LIMIT_PER_MINUTE: '10000',
      GEM_AI_MAX_CONCURRENT_PER_USER: '100',
    },
  });
  let limit;
  try {
    // Inside the try: a machine without a cgroup cpu controller still gets its cluster stopped.
    if (cpusPerInstance) {
      limit = limitCpu(
        cluster.instances.map((i) => i.pid),
        cpusPerInstance,
      );
    }
    const url = cluster.proxyUrl;
    const token = await accessTokenFor(url);
    const auth = { authorization: `Bearer ${token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    // Warm-up: the sample corpus and feeds are loaded at start; first queries plan and cache.
    await fetch(`${url}/api/markets/pwc`, { headers: auth });
    const idleRss = rssMiB(cluster.instances[0].pid);
    const reads = [
      { method: 'GET', path: '/', headers: auth },
      { method: 'GET', path: '/api/identity/check-app-access', headers: auth },
      { method: 'GET', path: '/api/markets', headers: auth },
      { method: 'GET', path: '/api/markets/pwc', headers: auth },
      { method: 'GET', path: '/api/markets/pwc?q=rynek', headers: auth },
      {
        method: 'POST',
        path: '/api/brief/search-competitor-content',
        headers: json,
        body: JSON.stringify({ query: 'podatki' }),
      },
      { method: 'GET', path: '/api/writing-tools/teaser-generator/history', headers: auth },
    ];
    await run({ url, requests: reads, conns: connections, seconds: 3 });
    const cpuBefore = cluster.instances.map((i) => cpuSeconds(i.pid));
    const pages = await run({ url, requests: reads, conns: connections, seconds: duration });
    // Share of a core each instance used during the pages run: near the cap means CPU-bound.
    pages.cpu = cluster.instances.map((i, k) => (cpuSeconds(i.pid) - cpuBefore[k]) / duration);
    const aiRun = await run({
      url,
      requests: [
        {
          method: 'POST',
          path: '/api/writing-tools/teaser-generator',
          headers: json,
          body: JSON.stringify({ content: 'Raport o tempie decyzji w polskich firmach w 2026 roku.' }),
        },
      ],
      conns: aiConnections,
      seconds: duration,
    });
    const afterRss = rssMiB(cluster.instances[0].pid);
    return { instances, pages, ai: aiRun, idleRss, afterRss };
  } finally {
    await down({ dir: cluster.dir, log: () => undefined });
    limit?.remove();
  }
}

if (cpusPerInstance) removeStaleGroups();
const ai = await startOpenAiServer({ tokenDelayMs: 20 });
const results = [];
try {
  for (const n of sizes) {
    results.push(await measure(n, ai));
    process.stderr.write(`measured ${n} instance(s)\n`);
  }
} finally {
  await ai.close();
}

const fmt = (x) => (typeof x === 'number' ? x.toFixed(x >= 100 ? 0 : 1) : String(x));
console.log(
  `${new Date().toISOString()}, ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${duration} s per run, ${connections} connections (AI ${aiConnections})${
    cpusPerInstance ? `, each instance capped at ${cpusPerInstance} cores` : ''
  }`,
);
console.log(
  '| instances | scenario | req/s | p50 ms | p95 ms | p99 ms | non-2xx | 5xx | errors | cores used |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of results) {
  for (const [name, s] of [
    ['pages and reads', r.pages],
    ['AI (streamed teaser)', r.ai],
  ]) {
    console.log(
      `| ${r.instances} | ${name} | ${fmt(s.rps)} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(s.p99)} | ${s.non2xx} | ${s.fiveXx} | ${s.errors} | ${
        s.cpu ? s.cpu.map((c) => c.toFixed(2)).join(' + ') : ''
      } |`,
    );
  }
}
const one = results.find((r) => r.instances === 1);
const two = results.find((r) => r.instances === 2);
if (one && two) {
  console.log(`two / one, pages and reads: ${(two.pages.rps / one.pages.rps).toFixed(2)}×`);
  console.log(`two / one, AI: ${(two.ai.rps / one.ai.rps).toFixed(2)}×`);
}
if (one)
  console.log(
    `instance 1 resident memory (1 instance): idle ${fmt(one.idleRss)} MiB, after the runs ${fmt(one.afterRss)} MiB`,
  );
console.log(JSON.stringify(results.map((r) => ({ ...r, pages: { ...r.pages }, ai: { ...r.ai } }))));
