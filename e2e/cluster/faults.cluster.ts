import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { campaignAudienceBuilderPaths } from '@gem/contracts/campaign-audience-builder';
import { competitorSearchPaths } from '@gem/contracts/competitor-search';
import { writingToolPaths } from '@gem/contracts/writing-tools';
import { startOpenAiServer, type OpenAiServer } from '@gem/test-servers/openai-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.mjs';
import { signInWithPopup } from '../support/sign-in';
import {
  accessToken,
  addAccount,
  bearer,
  eventually,
  isRunning,
  readStream,
  root,
  startCluster,
  type Cluster,
  type InstanceState,
} from './support/cluster';

// Faults (issue 15), each on a cluster of its own with its own private PostgreSQL (initdb in a
// temporary folder): the machine's shared PostgreSQL is never touched.

const teaser = writingToolPaths.generate('teaser-generator');
const aiEnv = (ai: OpenAiServer) => ({
  GEM_AI_PROVIDER: 'openai-compatible',
  GEM_AI_BASE_URL: ai.url,
  GEM_AI_MODEL: 'gem-test-model',
  GEM_AI_API_KEY: 'cluster-test-key',
});

function generate(cluster: Cluster, token: string, content = 'Raport o tempie decyzji w firmach.') {
  return fetch(`${cluster.url}${teaser}`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
}

async function waitForExit(pid: number, timeoutMs: number) {
  return eventually(async () => !isRunning(pid), timeoutMs, `process ${pid} exits`);
}

describe('kill -9 of the instance a user streams from', () => {
  let cluster: Cluster;
  let ai: OpenAiServer;
  beforeAll(async () => {
    ai = await startOpenAiServer({ tokenDelayMs: 2 });
    cluster = await startCluster({ env: aiEnv(ai) });
  }, 120_000);
  afterAll(async () => {
    await cluster?.down();
    await ai?.close();
  });

  it("shows the spec's error text, runs again at once on the other instance, and loses nothing acknowledged", async () => {
    const account = addAccount(cluster, 'killed@example.com');
    const browser: Browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ baseURL: cluster.url })).newPage();
      const streamedBy: string[] = [];
      page.on('response', (res) => {
        if (res.request().method() === 'POST' && res.url().endsWith(teaser)) {
          streamedBy.push((res.headers()['x-gem-upstream'] ?? '').split(',').at(-1)!.trim());
        }
      });
      await signInWithPopup(page, account);
      await page.goto('/tools/teaser-generator');
      await page.getByRole('heading', { level: 1, name: 'Teaser generator' }).waitFor();
      const output = page.getByRole('region', { name: 'Check the output' });
      const content = page.getByLabel('Paste the base content');
      const generateButton = page.getByRole('button', { name: 'Generate' });

      // One answer the user has seen in full: acknowledged.
      const kept = 'Pierwszy teaser, zapisany przed awarią.';
      ai.enqueue({ kind: 'text', text: kept });
      await content.fill('Raport o tempie decyzji w firmach.');
      await generateButton.click();
      await output.locator('[data-output-status="succeeded"]').waitFor({ timeout: 10_000 });

      // The next one streams from an instance that is killed mid-answer.
      ai.enqueue({ kind: 'stall', text: 'Trzy pierwsze słowa i nic więcej.', afterTokens: 3 });
      await generateButton.click();
      await output.getByText('Trzy pierwsze słowa').waitFor({ timeout: 10_000 });
      const victim = cluster.state.instances.find((i) => `127.0.0.1:${i.port}` === streamedBy.at(-1));
      expect(victim).toBeDefined();
      process.kill(victim!.pid, 'SIGKILL');
      await output.locator('[data-output-status="failed"]').waitFor({ timeout: 10_000 });
      expect(await output.innerText()).toContain('An unexpected error occurred. Please try again.');

      // At once, the same button: the other instance answers.
      const again = 'Drugi teaser, już z drugiej instancji.';
      ai.enqueue({ kind: 'text', text: again });
      const retried = Date.now();
      await generateButton.click();
      await output.locator('[data-output-status="succeeded"]').waitFor({ timeout: 10_000 });
      expect(Date.now() - retried).toBeLessThan(5_000);
      expect(await output.innerText()).toContain(again);
      expect(streamedBy.at(-1)).not.toBe(`127.0.0.1:${victim!.port}`);

      // Both finished answers are in the history, read through nginx from the survivor.
      const token = await accessToken(cluster.url, account);
      const history = await fetch(`${cluster.url}${writingToolPaths.history('teaser-generator')}`, {
        headers: bearer(token),
      });
      expect(history.status).toBe(200);
      const text = await history.text();
      expect(text).toContain(kept);
      expect(text).toContain(again);
    } finally {
      await browser.close();
    }
  }, 90_000);
});

describe('SIGTERM to one instance', () => {
  let cluster: Cluster;
  let ai: OpenAiServer;
  const drainMs = 8_000;
  beforeAll(async () => {
    ai = await startOpenAiServer({ tokenDelayMs: 2 });
    cluster = await startCluster({ env: { ...aiEnv(ai), GEM_SHUTDOWN_TIMEOUT_MS: String(drainMs) } });
  }, 120_000);
  afterAll(async () => {
    await cluster?.down();
    await ai?.close();
  });

  it('finishes the stream in flight, sends new requests to the other instance, and exits within the drain timeout', async () => {
    const token = await accessToken(cluster.url, addAccount(cluster, 'drain@example.com'));
    const words = Array.from({ length: 25 }, (_, i) => `słowo${i}`).join(' ');
    ai.enqueue({ kind: 'text', text: `${words}.`, tokenDelayMs: 120 });
    const res = await generate(cluster, token);
    expect(res.status).toBe(200);
    const stopping = cluster.instanceOf(res)!;
    let draining = true;
    const streamed = readStream(res).finally(() => {
      draining = false;
    });
    const signalled = Date.now();
    process.kill(stopping.pid, 'SIGTERM');
    // The instance handles the signal on its next turn: a request that reaches it before then is
    // still its own to answer. "New" requests are the ones sent once it has begun to drain.
    await expect
      .poll(() => cluster.log(stopping), { timeout: 5_000, interval: 20 })
      .toContain('stopping: finishing requests in flight');

    // New requests while it drains (its stream still in flight), reads and writes: all answered,
    // by the other instance.
    const statuses: number[] = [];
    const answeredBy = new Set<string>();
    do {
      const answers = await Promise.all([
        fetch(`${cluster.url}/api/markets`, { headers: bearer(token) }),
        fetch(`${cluster.url}/api/identity/check-app-access`, { headers: bearer(token) }),
        fetch(`${cluster.url}${competitorSearchPaths.search}`, {
          method: 'POST',
          headers: { ...bearer(token), 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'podatki' }),
        }),
      ]);
      for (const a of answers) {
        statuses.push(a.status);
        answeredBy.add(cluster.instanceOf(a)?.name ?? '?');
        await a.arrayBuffer();
      }
    } while (draining);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(answeredBy).toEqual(
      new Set(cluster.state.instances.filter((i) => i !== stopping).map((i) => i.name)),
    );

    const { lines, broken } = await streamed;
    expect(broken).toBe(false);
    expect(lines.at(-1)?.type).toBe('final');
    await waitForExit(stopping.pid, drainMs + 3_000);
    expect(Date.now() - signalled).toBeLessThan(drainMs + 3_000);
    expect(cluster.log(stopping)).toContain('"msg":"stopped"');
  }, 60_000);
});

// A pooled connection PostgreSQL ends is replaced (db/client.ts), and a request that finds the
// database gone answers 503 with a wait (plugins/errors.ts).
describe('PostgreSQL restarted under load', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.down();
  });

  const postgres = (action: 'stop' | 'start') =>
    promisify(execFile)(process.execPath, [
      path.join(root, 'scripts/cluster.mjs'),
      'postgres',
      action,
      '--dir',
      cluster.state.dir,
    ]);

  it('answers 503 while it is down, never hangs, and recovers within 5 s of its return without a restart', async () => {
    const token = await accessToken(cluster.url, addAccount(cluster, 'pg@example.com'));
    const pids = cluster.state.instances.map((i) => i.pid);
    type Outcome = { status: number; ms: number; phase: string };
    const outcomes: Outcome[] = [];
    let phase = 'up';
    let running = true;
    /** Until `count` requests sent in the current phase have been answered. */
    const answeredWhile = (count: number) => {
      const now = phase;
      return eventually(
        async () => outcomes.filter((o) => o.phase === now).length >= count,
        10_000,
        `${count} answers while ${now}`,
      );
    };
    const worker = async () => {
      while (running) {
        const started = Date.now();
        const at = phase;
        const status = await fetch(`${cluster.url}/api/markets/pwc`, {
          headers: bearer(token),
          signal: AbortSignal.timeout(10_000),
        })
          .then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          })
          .catch(() => 0);
        outcomes.push({ status, ms: Date.now() - started, phase: at });
      }
    };
    // Eight at a time, each sending its next request as soon as its last is answered.
    const load = Promise.all(Array.from({ length: 8 }, worker));
    await answeredWhile(16);
    phase = 'stopping';
    await postgres('stop');
    phase = 'down';
    await answeredWhile(40);
    phase = 'starting';
    await postgres('start');
    phase = 'back';
    const recovered = await eventually(
      async () => {
        const r = await fetch(`${cluster.url}/api/markets/pwc`, { headers: bearer(token) });
        const direct = await Promise.all(
          cluster.state.instances.map((i: InstanceState) =>
            fetch(`${cluster.direct(i)}/api/markets/pwc`, { headers: bearer(token) }).then((x) => x.status),
          ),
        );
        return r.status === 200 && direct.every((s) => s === 200);
      },
      5_000,
      'everything answers again',
    );
    await answeredWhile(16);
    running = false;
    await load;

    expect(recovered).toBeLessThan(5_000);
    // Never a hang: every request answered within a few seconds.
    expect(outcomes.filter((o) => o.ms > 5_000)).toEqual([]);
    // While it was down: 503 (or 200 from what needs no database), never another error.
    const during = outcomes.filter((o) => o.phase === 'down');
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((o) => o.status !== 503 && o.status !== 200)).toEqual([]);
    expect(during.some((o) => o.status === 503)).toBe(true);
    expect(outcomes.filter((o) => o.phase === 'up' && o.status !== 200)).toEqual([]);
    // The same processes throughout.
    for (const pid of pids) expect(isRunning(pid)).toBe(true);
  }, 60_000);
});

/** A service that accepts connections and never answers (slow), or is gone (dead). */
async function blackHole(): Promise<{ url: string; kill(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    kill: close,
    close: () => (server.listening ? close() : Promise.resolve()),
  };
}

describe('a slow, then dead, AI service, feed host, CRM and search service', () => {
  let cluster: Cluster;
  let holes: Record<'ai' | 'feeds' | 'crm' | 'search', Awaited<ReturnType<typeof blackHole>>>;
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'gem-cluster-faults-'));
    holes = {
      ai: await blackHole(),
      feeds: await blackHole(),
      crm: await blackHole(),
      search: await blackHole(),
    };
    writeFileSync(path.join(work, 'feeds.json'), JSON.stringify({ pwc: `${holes.feeds.url}/pwc.json` }));
    cluster = await startCluster({
      env: {
        GEM_AI_PROVIDER: 'openai-compatible',
        GEM_AI_BASE_URL: `${holes.ai.url}/v1`,
        GEM_AI_MODEL: 'gem-test-model',
        GEM_AI_TIMEOUT_MS: '2000',
        GEM_FEEDS_FILE: path.join(work, 'feeds.json'),
        GEM_FEEDS_ALLOW_PRIVATE_HOSTS: 'true',
        GEM_SEARCH_PROVIDER: 'brave',
        GEM_BRAVE_API_KEY: 'test-key',
        GEM_BRAVE_BASE_URL: holes.search.url,
        GEM_CRM_PROVIDER: 'salesforce',
        GEM_SALESFORCE_LOGIN_URL: holes.crm.url,
        GEM_SALESFORCE_CLIENT_ID: 'id',
        GEM_SALESFORCE_CLIENT_SECRET: 'secret',
        GEM_CRM_TIMEOUT_MS: '2000',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await cluster?.down();
    await Promise.all(Object.values(holes ?? {}).map((h) => h.close()));
    rmSync(work, { recursive: true, force: true });
  });

  /** Each tool's call, and whether its answer is its own failure. */
  function calls(token: string) {
    const json = { ...bearer(token), 'content-type': 'application/json' };
    return {
      ai: () => generate(cluster, token),
      search: () =>
        fetch(`${cluster.url}${competitorSearchPaths.search}`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ query: 'podatki' }),
        }),
      crm: () =>
        fetch(`${cluster.url}${campaignAudienceBuilderPaths.campaigns}?q=`, { headers: bearer(token) }),
    };
  }

  /** What needs none of the failing services: answered at once meanwhile. */
  async function othersAnswer(token: string) {
    for (const p of ['/api/markets', '/api/markets/pwc', '/api/identity/check-app-access', '/tools']) {
      const started = Date.now();
      const res = await fetch(`${cluster.url}${p}`, { headers: bearer(token) });
      expect(res.status, p).toBe(200);
      expect(Date.now() - started, p).toBeLessThan(1_000);
    }
  }

  for (const mode of ['slow', 'dead'] as const) {
    it(`fails only its own tool when each is ${mode}`, async () => {
      if (mode === 'dead') await Promise.all(Object.values(holes).map((h) => h.kill()));
      const token = await accessToken(cluster.url, addAccount(cluster, `${mode}@example.com`));
      const tool = calls(token);
      const started = Date.now();
      const pending = {
        ai: tool
          .ai()
          .then(async (r) => ({ status: r.status, body: await r.text(), ms: Date.now() - started })),
        search: tool
          .search()
          .then(async (r) => ({ status: r.status, body: await r.text(), ms: Date.now() - started })),
        crm: tool
          .crm()
          .then(async (r) => ({ status: r.status, body: await r.text(), ms: Date.now() - started })),
      };
      // While the three hang (slow) or fail (dead), everything else answers at once.
      await othersAnswer(token);
      const ai = await pending.ai;
      const search = await pending.search;
      const crm = await pending.crm;
      // The AI tool: its own error, within GEM_AI_TIMEOUT_MS and its retries.
      expect([502, 503, 504], ai.body).toContain(ai.status);
      expect(ai.body).toMatch(/ai_(timeout|unavailable|busy)/);
      // The search: its own error (Brave's 10 s deadline when slow).
      expect(search.status, search.body).toBeGreaterThanOrEqual(500);
      expect(search.ms).toBeLessThan(15_000);
      // The CRM: crm_unavailable within GEM_CRM_TIMEOUT_MS.
      expect(crm.status, crm.body).toBeGreaterThanOrEqual(500);
      expect(crm.body).toContain('crm_unavailable');
      expect(crm.ms).toBeLessThan(8_000);
      // The feed host fails the feed only: the page still answers (no items yet).
      await othersAnswer(token);
      // No instance was lost to any of it.
      for (const i of cluster.state.instances) expect(isRunning(i.pid)).toBe(true);
    }, 60_000);
  }
});
