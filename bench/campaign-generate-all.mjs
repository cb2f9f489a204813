// A campaign's 'Generate all' (issue 29: "the first words of each of 6 assets appear in under
// 1 s"): from sending POST /api/campaigns/:id/generate-all to the first `delta` event of each of
// the six assets the brief calls for, through the built server, against the OpenAI-compatible
// test server answering every request with its first token after a fixed delay and the rest at a
// fixed pace. In the same runs, two references: the stand-in's first token asked directly, and
// one writing tool's generation (the teaser) through GEM to its first delta.
// Run `npm run build` first, then
//   node bench/campaign-generate-all.mjs [postgres://postgres@127.0.0.1:5432/test] [--runs 5]
//     [--concurrent default,6] [--first-token-ms 300] [--token-ms 30]
// Without a URL GEM runs on embedded PGlite in a temporary folder; with one, on its own database,
// gem_bench_generate_all, made on that server and dropped at the end. `--concurrent` lists the
// GEM_AI_MAX_CONCURRENT_PER_USER values to run with (a fresh server each; `default` leaves it
// unset). Results: bench/campaign-generate-all.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { accessTokenFor } from './support/access-token.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    concurrent: { type: 'string', default: 'default,6' },
    'first-token-ms': { type: 'string', default: '300' },
    'token-ms': { type: 'string', default: '30' },
  },
});
const runs = Number(options.runs);
const firstTokenMs = Number(options['first-token-ms']);
const tokenMs = Number(options['token-ms']);
const limits = options.concurrent.split(',').map((v) => (v === 'default' ? null : Number(v)));
const adminUrl = positionals[0];
const DB = 'gem_bench_generate_all';
const TARGET_MS = 1000;

// Six channels GEM writes for, named as a marketer would (channelsOfBrief reads them): every
// channel but Meta ads.
const briefChannels = ['LinkedIn', 'Facebook', 'X', 'Google Ads', 'Newsletter', 'Blog article'];
const expected = ['article', 'linkedin-post', 'facebook-post', 'x-post', 'google-ads', 'email-teaser'];
const briefFields = [
  'campaignName',
  'campaignType',
  'primaryObjective',
  'eventObjective',
  'eventDate',
  'targetAudience',
  'budget',
  'timeline',
  'keyMessages',
  'channels',
  'activityKPIs',
  'businessKPIs',
  'creativeAssets',
  'additionalNotes',
];

// The stand-in in its own process: GEM's OpenAI-compatible test server with its plausible Polish
// replies (each tool's answer of the right shape), every reply's first token `first` ms after the
// request (the server waits `pace` before each token, the first one too) and the next `pace` apart.
const standInCode = `
import { startOpenAiServer } from './packages/test-servers/src/openai-server.ts';
import { plausiblePolishReply } from './packages/test-servers/src/polish-replies.ts';
const first = Number(process.env.BENCH_FIRST_TOKEN_MS);
const pace = Number(process.env.BENCH_TOKEN_MS);
const server = await startOpenAiServer({
  tokenDelayMs: pace,
  defaultReply: (request) => ({ ...plausiblePolishReply(request), firstTokenDelayMs: Math.max(0, first - pace) }),
});
process.stdout.write(server.url + '\\n');
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
`;

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

async function waitReady(base, child) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${base}/api/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('GEM did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the stand-in; its base URL (with /v1) once it listens. */
function startStandIn(children) {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['--input-type=module', '-e', standInCode], {
    cwd: root,
    env: { ...process.env, BENCH_FIRST_TOKEN_MS: String(firstTokenMs), BENCH_TOKEN_MS: String(tokenMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes('\n')) resolve(out.split('\n')[0].trim());
    });
    child.once('exit', (code) => reject(new Error(`the stand-in exited (${code})`)));
  });
}

/** The NDJSON (or SSE) lines of a streamed answer, each with when its chunk arrived. */
async function* linesOf(res) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body) {
    const at = performance.now();
    buffer += decoder.decode(chunk, { stream: true });
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i).trim();
      buffer = buffer.slice(i + 1);
      if (line !== '') yield { at, line };
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** One configuration: a fresh GEM with this concurrency limit, `runs` measured rounds. */
async function measure(limit, aiBase, scratch, children) {
  const control = async (p, body) => {
    const res = await fetch(`${aiBase.replace(/\/v1$/, '')}/__control${p}`, {
      method: body === undefined ? 'GET' : 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  let database;
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${DB} with (force)`);
    await admin.query(`create database ${DB}`);
    await admin.end();
    database = { DATABASE_URL: Object.assign(new URL(adminUrl), { pathname: `/${DB}` }).toString() };
  } else {
    database = { GEM_DATA_DIR: path.join(scratch, `data-${limit ?? 'default'}`) };
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const gem = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      GEM_LOG_LEVEL: 'warn',
      GEM_AI_PROVIDER: 'openai-compatible',
      GEM_AI_BASE_URL: aiBase,
      GEM_AI_MODEL: 'gem-test-model',
      GEM_AI_RATE_LIMIT_PER_MINUTE: '1000',
      ...(limit === null ? {} : { GEM_AI_MAX_CONCURRENT_PER_USER: String(limit) }),
      ...database,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(gem);
  try {
    await waitReady(base, gem);
    const token = await accessTokenFor(base);
    const api = async (method, url, body) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    };

    /** A campaign from a brief accepted in the brief creator (a scripted chat turn): its id. */
    let made = 0;
    async function newCampaign() {
      made += 1;
      const data = {
        campaignName: `Bench launch ${made}`,
        campaignType: ['Webinar'],
        primaryObjective: 'Demo requests from finance teams of mid-size manufacturers.',
        targetAudience: 'CFOs and finance directors of mid-size manufacturers in Poland.',
        keyMessages: 'Close the books in three days; cash-flow visibility every week.',
        channels: briefChannels,
        activityKPIs: ['Registrations'],
        businessKPIs: ['Qualified leads'],
      };
      const briefUpdates = Object.fromEntries(briefFields.map((f) => [f, data[f] ?? null]));
      await control('/replies', [
        {
          kind: 'object',
          value: { standardAnswer: 'Noted.', briefUpdates, isAwaitingConfirmation: false },
        },
      ]);
      const { sessionId } = await api('POST', '/api/brief/chat', {
        message: `About ${data.campaignName}`,
        language: 'English',
      });
      const { finishedBriefId } = await api('POST', '/api/brief/chat', {
        message: '',
        sessionId,
        confirmJsonResponse: true,
      });
      return (await api('POST', '/api/campaigns', { finishedBriefId })).id;
    }

    /** Reference 1: the stand-in's first token, asked directly (a teaser-like prompt). */
    async function direct() {
      const t0 = performance.now();
      const res = await fetch(`${aiBase}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gem-test-model',
          stream: true,
          messages: [
            { role: 'system', content: 'Piszesz teaser do newslettera.' },
            { role: 'user', content: 'Raport o tempie decyzji w polskich firmach.' },
          ],
        }),
      });
      let first;
      for await (const { at, line } of linesOf(res)) {
        if (first !== undefined || !line.startsWith('data: {')) continue;
        if (JSON.parse(line.slice(6)).choices[0]?.delta?.content) first = at - t0;
      }
      return first;
    }

    /** Reference 2: one writing tool (the teaser) through GEM, to its first delta. */
    async function oneTool() {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/writing-tools/teaser-generator`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Raport o tempie decyzji w polskich firmach średniej wielkości.' }),
      });
      if (res.status !== 200) throw new Error(`teaser: ${res.status} ${await res.text()}`);
      let first;
      for await (const { at, line } of linesOf(res)) {
        if (first === undefined && JSON.parse(line).type === 'delta') first = at - t0;
      }
      return first;
    }

    /** 'Generate all' on a new campaign: when each channel's first delta and the end came. */
    async function generateAll(campaignId) {
      await control('/reset', {});
      const wall0 = Date.now();
      const t0 = performance.now();
      const res = await fetch(`${base}/api/campaigns/${campaignId}/generate-all`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status !== 200) throw new Error(`generate-all: ${res.status} ${await res.text()}`);
      const firstDelta = {};
      let started;
      let end;
      for await (const { at, line } of linesOf(res)) {
        const event = JSON.parse(line);
        if (event.type === 'started') {
          started = at - t0;
          if (event.channels.join() !== expected.join())
            throw new Error(`the brief calls for ${event.channels.join(', ')}`);
        }
        if (event.type === 'delta') firstDelta[event.channel] ??= at - t0;
        if (event.type === 'failed') throw new Error(`${event.channel} failed: ${event.error.message}`);
        if (event.type === 'end') {
          end = at - t0;
          if (event.saved !== expected.length) throw new Error(`only ${event.saved} saved`);
        }
      }
      // When GEM asked the model, on the same wall clock (the stand-in records Date.now()).
      const { requests } = await control('/requests');
      const asked = requests.map((r) => r.receivedAt - wall0).sort((a, b) => a - b);
      return {
        started,
        end,
        ...firstDelta,
        last: Math.max(...expected.map((c) => firstDelta[c])),
        firstAsked: asked[0],
        sixthAsked: asked[expected.length - 1],
        requests: requests.length,
      };
    }

    // Warm-up: a round not counted (the first generation loads the AI SDK and the tools).
    await direct();
    await oneTool();
    await generateAll(await newCampaign());

    const samples = [];
    for (let r = 0; r < runs; r += 1) {
      const campaignId = await newCampaign();
      const sample = { direct: await direct(), oneTool: await oneTool(), ...(await generateAll(campaignId)) };
      samples.push(sample);
      process.stderr.write(
        `  run ${r + 1}: last first delta ${sample.last.toFixed(0)} ms, one tool ${sample.oneTool.toFixed(0)} ms\n`,
      );
    }
    return samples;
  } finally {
    gem.kill('SIGTERM');
    await new Promise((resolve) => (gem.exitCode === null ? gem.once('exit', resolve) : resolve()));
  }
}

function report(limit, samples) {
  const col = (key) => samples.map((s) => s[key]);
  const ref = median(col('oneTool'));
  const directRef = median(col('direct'));
  const fmt = (x) => x.toFixed(0);
  const row = (label, key, compare = true) => {
    const xs = col(key);
    const m = median(xs);
    const tail = compare ? `${fmt(m - directRef)} | ${fmt(m - ref)} | ${(m / ref).toFixed(2)}×` : '– | – | –';
    return `| ${label} | ${fmt(m)} | ${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))} | ${tail} |`;
  };
  console.log(
    `\nGEM_AI_MAX_CONCURRENT_PER_USER=${limit ?? 'unset (GEM default)'}, ${samples.length} runs after 1 warm-up, ${adminUrl ? 'PostgreSQL' : 'PGlite'}, first token ${firstTokenMs} ms, then ${tokenMs} ms a token, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
  );
  console.log(
    '| from sending the POST to | median ms | range ms | − direct ms | − one tool ms | ÷ one tool |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(row("reference: the stand-in's first token, asked directly", 'direct'));
  console.log(row('reference: one writing tool (teaser) through GEM, first delta', 'oneTool'));
  console.log(row("'Generate all': `started`", 'started', false));
  console.log(row("'Generate all': the model first asked", 'firstAsked', false));
  console.log(row("'Generate all': the model asked for the sixth asset", 'sixthAsked', false));
  for (const channel of expected) console.log(row(`'Generate all': first delta of ${channel}`, channel));
  console.log(row("'Generate all': **the last asset's first delta**", 'last'));
  console.log(row("'Generate all': `end` (all six saved)", 'end', false));
  const last = median(col('last'));
  console.log(
    `\nEach run, the last asset's first delta (ms): ${col('last').map(fmt).join(' ')}; model requests per run: ${col('requests').join(' ')}`,
  );
  console.log(
    `Target (every asset's first words under ${TARGET_MS} ms): ${last < TARGET_MS ? 'met' : 'NOT met'} (median ${fmt(last)} ms).`,
  );
}

const children = [];
const scratch = mkdtempSync(path.join(tmpdir(), 'gem-bench-generate-all-'));
try {
  const aiBase = await startStandIn(children);
  console.log(
    `${new Date().toISOString()}, ${cpus().length} cores, Node ${process.versions.node}, load average at the start ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  for (const limit of limits) {
    process.stderr.write(`GEM_AI_MAX_CONCURRENT_PER_USER=${limit ?? 'default'}\n`);
    report(limit, await measure(limit, aiBase, scratch, children));
  }
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect().catch(() => undefined);
    await admin.query(`drop database if exists ${DB} with (force)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
  rmSync(scratch, { recursive: true, force: true });
}
