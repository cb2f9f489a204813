// First token to first paint: from the moment the OpenAI-compatible test server writes the
// model's first token (its SSE chunk) to the moment that text is painted in GEM's page.
// Run `npm run build` first, then `node bench/ai-first-token.mjs [runs=20] [teaser|brief-creator]`:
// a writing tool's text answer (the teaser), or a brief creator turn (a structured answer whose
// first chunk carries the first word of its standardAnswer).
// Results and how to read them: bench/ai-first-token.md.
/* global document, MutationObserver, requestAnimationFrame -- the page.evaluate callback runs in the page */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { launchChromium } from '../e2e/support/chromium.mjs';
import { signInAsMarketer } from './support/sign-in.mjs';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 20);
const tool = process.argv[3] ?? 'teaser';
if (!['teaser', 'brief-creator'].includes(tool)) throw new Error(`unknown tool ${tool}`);
const warmUp = 3;
// Later tokens come slowly, so the first one is painted on its own.
const tokenDelayMs = 150;

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

async function waitFor(url, child, what) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const children = [];
const scratch = mkdtempSync(path.join(tmpdir(), 'gem-bench-ai-'));
let browser;
try {
  // The test server in its own process, as `npm run ai:test-server` runs it.
  const aiPort = await freePort();
  const ai = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    [
      'packages/test-servers/src/openai-server-cli.ts',
      '--port',
      String(aiPort),
      '--token-delay-ms',
      String(tokenDelayMs),
    ],
    { cwd: root, stdio: 'ignore' },
  );
  children.push(ai);
  const aiBase = `http://127.0.0.1:${aiPort}`;
  await waitFor(`${aiBase}/v1/models`, ai, 'the OpenAI test server');
  const control = async (p, body) => {
    const res = await fetch(`${aiBase}/__control${p}`, {
      method: body === undefined ? 'GET' : 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };

  // The built GEM server, as `npm start` runs it, with the AI service at the test server.
  const port = await freePort();
  const gem = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      GEM_DATA_DIR: path.join(scratch, 'data'),
      GEM_LOG_LEVEL: 'warn',
      GEM_AI_PROVIDER: 'openai-compatible',
      GEM_AI_BASE_URL: `${aiBase}/v1`,
      GEM_AI_MODEL: 'gem-test-model',
      GEM_AI_RATE_LIMIT_PER_MINUTE: '1000',
    },
    stdio: 'ignore',
  });
  children.push(gem);
  const baseURL = `http://127.0.0.1:${port}`;
  await waitFor(`${baseURL}/api/ready`, gem, 'GEM');

  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL });
  const page = await context.newPage();

  // Sign in as the demo marketer (the embedded provider's popup).
  await signInAsMarketer(page);

  // What each tool needs: its page, how a run starts, where the answer shows, its reply.
  const tools = {
    teaser: {
      path: '/tools/teaser-generator',
      request: '/api/writing-tools/',
      output: '[data-output-status]',
      async prepare() {
        await page.getByLabel('Paste the base content').fill('Raport o tempie decyzji w polskich firmach.');
      },
      start: () => page.getByRole('button', { name: 'Generate' }).click(),
      done: () => page.locator('[data-output-status="succeeded"]').waitFor({ timeout: 15_000 }),
      reply: (marker) => ({
        kind: 'text',
        text: `${marker} i dalszy ciąg zapowiedzi, który pisze się wolniej.`,
      }),
    },
    'brief-creator': {
      path: '/tools/brief-creator',
      request: '/api/brief/chat/stream',
      output: '[role="log"]',
      async prepare() {},
      async start() {
        await page.getByLabel('Your message').fill('A webinar for CFOs of mid-size manufacturers.');
        await page.getByLabel('Your message').press('Enter');
      },
      done: () => page.getByText('Enter sends, Shift+Enter adds a line.').waitFor({ timeout: 15_000 }),
      // The structured answer streams as JSON fragments of one size; the first carries the
      // object's opening and the marker, so the first token written is the first word shown.
      reply(marker) {
        const opening = `{"standardAnswer":"${marker} `;
        return {
          kind: 'object',
          chunkChars: opening.length,
          value: {
            standardAnswer: `${marker} and the rest of the answer, which is written more slowly.`,
            briefUpdates: Object.fromEntries(
              ['campaignName', 'campaignType', 'primaryObjective', 'eventObjective', 'eventDate']
                .concat(['targetAudience', 'budget', 'timeline', 'keyMessages', 'channels'])
                .concat(['activityKPIs', 'businessKPIs', 'creativeAssets', 'additionalNotes'])
                .map((field) => [field, null]),
            ),
            isAwaitingConfirmation: false,
          },
        };
      },
    },
  };
  const current = tools[tool];
  await page.goto(current.path);
  await page.locator(current.output).first().waitFor();
  await current.prepare();

  // Chromium's network events: when each chunk of the generation's NDJSON answer reached the
  // browser. Their clock is monotonic; requestWillBeSent's wallTime maps it to the wall clock.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const generations = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.request.method === 'POST' && e.request.url.includes(current.request)) {
      generations.set(e.requestId, { offsetMs: e.wallTime * 1000 - e.timestamp * 1000, chunks: [] });
    }
  });
  cdp.on('Network.dataReceived', (e) => {
    const g = generations.get(e.requestId);
    if (g) g.chunks.push(e.timestamp * 1000 + g.offsetMs);
  });

  const samples = [];
  for (let i = 0; i < warmUp + runs; i++) {
    const marker = `Znacznik${i}x${Date.now().toString(36)}`;
    await control('/reset', {});
    generations.clear();
    await control('/replies', [current.reply(marker)]);
    // Watches the output for the marker; once it is in the DOM, the next frame paints it:
    // a message posted from that frame's requestAnimationFrame runs right after the paint.
    const painted = page.evaluate(
      ({ text, selector }) =>
        new Promise((resolve, reject) => {
          const target = document.querySelector(selector);
          if (!target) return reject(new Error('no output panel'));
          const timer = setTimeout(() => reject(new Error('the token never appeared')), 15_000);
          const observer = new MutationObserver(() => {
            if (!target.textContent?.includes(text)) return;
            observer.disconnect();
            const inDom = performance.timeOrigin + performance.now();
            requestAnimationFrame(() => {
              const channel = new MessageChannel();
              channel.port1.onmessage = () => {
                clearTimeout(timer);
                resolve({ inDom, painted: performance.timeOrigin + performance.now() });
              };
              channel.port2.postMessage(null);
            });
          });
          observer.observe(target, { subtree: true, childList: true, characterData: true });
        }),
      { text: marker, selector: current.output },
    );
    await current.start();
    const times = await painted;
    await current.done();
    const [request] = (await control('/requests')).requests;
    if (!request?.firstTokenAt) throw new Error('the test server did not record the first token');
    // The first chunk that can carry the token: none is sent before the model answers.
    const chunks = [...generations.values()].flatMap((g) => g.chunks);
    const arrived = chunks.filter((t) => t >= request.firstTokenAt - 1).sort((a, b) => a - b)[0];
    if (arrived === undefined) throw new Error('no network event for the answer');
    if (i >= warmUp) {
      samples.push({
        network: arrived - request.firstTokenAt,
        total: times.painted - request.firstTokenAt,
        toDom: times.inDom - request.firstTokenAt,
      });
    }
  }

  const sorted = (key) => samples.map((s) => s[key]).sort((a, b) => a - b);
  const pick = (xs, q) => xs[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];
  const row = (label, key) => {
    const xs = sorted(key);
    return `| ${label} | ${pick(xs, 0.5).toFixed(1)} ms | ${pick(xs, 0.95).toFixed(1)} ms | ${xs[0].toFixed(1)} ms | ${xs.at(-1).toFixed(1)} ms |`;
  };
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  console.log(
    `${tool}: ${new Date().toISOString()}, ${cpus().length} cores, load average ${load}, Node ${process.versions.node}, ${runs} runs after ${warmUp} warm-up, token pace ${tokenDelayMs} ms\n`,
  );
  console.log('| measure | median | p95 | min | max |\n|---|---|---|---|---|');
  console.log(row('first token written → its bytes reach the browser', 'network'));
  console.log(row('first token written → text in the DOM', 'toDom'));
  console.log(row('first token written → text painted', 'total'));
  const p50 = pick(sorted('total'), 0.5);
  console.log(`\nEach run, painted (ms): ${samples.map((s) => s.total.toFixed(0)).join(' ')}`);
  console.log(`\nTarget under 50 ms: ${p50 < 50 ? 'met' : 'NOT met'} (median ${p50.toFixed(1)} ms).`);
} finally {
  await browser?.close();
  for (const child of children) child.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
}
