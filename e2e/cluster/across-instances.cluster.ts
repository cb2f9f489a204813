import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writingToolPaths } from '@gem/contracts/writing-tools';
import { jsonFeed, startFeedServer, type FeedServer } from '@gem/test-servers/feed-server';
import { startOpenAiServer, type OpenAiServer } from '@gem/test-servers/openai-server';
import { htmlPage, sitemap, startSiteHost, type SiteHost } from '@gem/test-servers/site-host';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.mjs';
import { signInWithPopup } from '../support/sign-in';
import {
  accessToken,
  addAccount,
  bearer,
  eventually,
  readStream,
  root,
  startCluster,
  type Cluster,
} from './support/cluster';

// What must hold across two GEM instances behind nginx on one PostgreSQL (issue 15), each
// through nginx: `npm run cluster -- up` with a private PostgreSQL, as a person would start it.

const teaser = writingToolPaths.generate('teaser-generator');
const RATE_PER_MINUTE = 4;
const READ_TIMEOUT_S = 12;

let cluster: Cluster;
let ai: OpenAiServer;
let feeds: FeedServer;
let site: SiteHost;
let work: string;
let startedAt: number;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'gem-cluster-across-'));
  ai = await startOpenAiServer({ tokenDelayMs: 2 });
  feeds = await startFeedServer();
  const item = (id: string) => ({
    id,
    title: `Wiadomość ${id}`,
    url: `https://news.example/${id}`,
    text: 'Tekst.',
    date: '2026-11-20T10:00:00Z',
  });
  feeds.set('/pwc.json', {
    body: jsonFeed('PwC', [item('p1'), item('p2')]),
    contentType: 'application/feed+json',
  });
  feeds.set('/technology.json', {
    body: jsonFeed('Tech', [item('t1')]),
    contentType: 'application/feed+json',
  });
  writeFileSync(
    path.join(work, 'feeds.json'),
    JSON.stringify({ pwc: feeds.url('/pwc.json'), technology: feeds.url('/technology.json') }),
  );
  site = await startSiteHost();
  site.load({
    '/robots.txt': {
      body: `User-agent: *\nAllow: /\nSitemap: ${site.url('/sitemap.xml')}\n`,
      contentType: 'text/plain',
    },
    '/sitemap.xml': { body: sitemap([{ loc: site.url('/pl/raport.html') }]) },
    '/pl/raport.html': {
      body: htmlPage({
        title: 'Raport o podatkach',
        paragraphs: ['Podatki w Polsce w 2026 roku.'],
        publishedTime: '2026-11-20T10:00:00Z',
        canonical: site.url('/pl/raport.html'),
      }),
      contentType: 'text/html; charset=utf-8',
    },
  });
  writeFileSync(
    path.join(work, 'competitors.json'),
    JSON.stringify([{ key: 'deloitte', name: 'Deloitte', site: site.url('/pl/') }]),
  );
  startedAt = Date.now();
  cluster = await startCluster({
    readTimeout: `${READ_TIMEOUT_S}s`,
    env: {
      GEM_AI_PROVIDER: 'openai-compatible',
      GEM_AI_BASE_URL: ai.url,
      GEM_AI_MODEL: 'gem-test-model',
      GEM_AI_API_KEY: 'cluster-test-key',
      GEM_AI_RATE_LIMIT_PER_MINUTE: String(RATE_PER_MINUTE),
      GEM_AI_MAX_CONCURRENT_PER_USER: '2',
      GEM_FEEDS_FILE: path.join(work, 'feeds.json'),
      GEM_FEEDS_ALLOW_PRIVATE_HOSTS: 'true',
      GEM_FEEDS_REFRESH_MINUTES: '1',
      GEM_COMPETITORS_FILE: path.join(work, 'competitors.json'),
      GEM_COMPETITORS_CRAWL: 'true',
      GEM_COMPETITORS_CRAWL_MINUTES: '1',
      GEM_COMPETITORS_CRAWL_DELAY_MS: '10',
      GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS: 'true',
    },
  });
}, 120_000);

afterAll(async () => {
  await cluster?.down();
  await Promise.all([ai?.close(), feeds?.close(), site?.close()]);
  rmSync(work, { recursive: true, force: true });
});

/** nginx's access log lines (deploy/nginx.conf's `gem` format) for requests matching `pattern`. */
function proxied(pattern: RegExp) {
  const log = readFileSync(path.join(cluster.state.dir, 'logs/nginx-access.log'), 'utf8');
  return log
    .split('\n')
    .filter((l) => pattern.test(l))
    .map((l) => ({ line: l, upstream: /upstream=(\S+)/.exec(l)?.[1] ?? '' }));
}

/**
 * Whether each of the background rounds `names` has run and none is running now: its row in
 * scheduled_tasks (apps/server/src/lib/scheduler.ts) holds no lease and was finished after it was
 * last started. A run releases its lease only once its work is done, on whichever instance.
 */
async function roundsOver(names: string[]): Promise<boolean> {
  const client = new pg.Client({ connectionString: cluster.state.postgres.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ over: boolean | null }>(
      `select leased_by is null and last_finished_at >= last_started_at as over
         from scheduled_tasks where name = any($1)`,
      [names],
    );
    return rows.length === names.length && rows.every((r) => r.over === true);
  } finally {
    await client.end();
  }
}

const ports = () => cluster.state.instances.map((i) => `127.0.0.1:${i.port}`);

async function generate(token: string, content = 'Nowy raport o rynku pracy w Polsce.') {
  return fetch(`${cluster.url}${teaser}`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
}

/** The article writer: its answer has a limit, over which the model is asked to shorten it. */
async function generateArticle(token: string) {
  return fetch(`${cluster.url}${writingToolPaths.generate('article')}`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'Raport o rynku pracy w Polsce.', task: 'Napisz krótki artykuł.' }),
  });
}

describe('two GEM instances behind nginx on one PostgreSQL', () => {
  it('start together on an empty database and run its migrations once', async () => {
    expect(cluster.upOutput.trim().split('\n').at(-1)).toBe(cluster.url);
    const journal = JSON.parse(
      readFileSync(path.join(root, 'apps/server/drizzle/meta/_journal.json'), 'utf8'),
    ) as {
      entries: unknown[];
    };
    const client = new pg.Client({ connectionString: cluster.state.postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string; distinct: string }>(
        'select count(*) as n, count(distinct hash) as distinct from drizzle.__drizzle_migrations',
      );
      expect(Number(rows[0]!.n)).toBe(journal.entries.length);
      expect(Number(rows[0]!.distinct)).toBe(journal.entries.length);
    } finally {
      await client.end();
    }
    for (const instance of cluster.state.instances) {
      const log = cluster.log(instance);
      expect(log).toContain('GEM is ready');
      // No error and no fatal line: neither instance stumbled over the other's migration.
      expect(log.split('\n').filter((l) => /"level":[56]0/.test(l))).toEqual([]);
    }
  });

  it('sign a user in through nginx across both instances, and take their token on either', async () => {
    const account = addAccount(cluster, 'across@example.com');
    const token = await accessToken(cluster.url, account);
    // The sign-in's steps (the provider's page, the form, the code, the token) went to both.
    const steps = proxied(/ "(?:GET|POST) \/oidc\//);
    expect(steps.length).toBeGreaterThanOrEqual(4);
    expect(new Set(steps.map((s) => s.upstream))).toEqual(new Set(ports()));
    for (const instance of cluster.state.instances) {
      const res = await fetch(`${cluster.direct(instance)}/api/identity/check-app-access`, {
        headers: bearer(token),
      });
      expect(await res.json()).toEqual({ hasAccess: true });
    }
    const answeredBy = new Set<string>();
    for (let i = 0; i < 4; i += 1) {
      const res = await fetch(`${cluster.url}/api/markets`, { headers: bearer(token) });
      expect(res.status).toBe(200);
      answeredBy.add(cluster.instanceOf(res)?.name ?? '?');
    }
    expect(answeredBy).toEqual(new Set(cluster.state.instances.map((i) => i.name)));
  });

  it('sign a person in with a real browser through nginx on its own port, and keep them signed in over a reload', async () => {
    const browser: Browser = await launchChromium();
    try {
      const context = await browser.newContext({ baseURL: cluster.url });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      const instances = new Set<string>();
      page.on('response', (res) => {
        const upstream = res.headers()['x-gem-upstream'];
        if (upstream) instances.add(upstream.split(',').at(-1)!.trim());
      });
      const account = addAccount(cluster, 'browser@example.com');
      await signInWithPopup(page, account);
      const welcome = page.getByRole('heading', {
        level: 1,
        name: 'Welcome to Generative and enhanced marketing',
      });
      await welcome.waitFor();
      // The provider's cookies are the proxy's: its host and port, not an instance's.
      const cookies = await context.cookies(`${cluster.url}/oidc/`);
      expect(cookies.length).toBeGreaterThan(0);
      for (const c of cookies) expect(c.domain).toBe('127.0.0.1');
      await page.reload();
      await welcome.waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logout' }).waitFor();
      expect(instances).toEqual(new Set(ports()));
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('count the AI limits once for the pair: concurrent calls and calls per minute', async () => {
    const account = addAccount(cluster, 'limits@example.com');
    const token = await accessToken(cluster.url, account);
    ai.reset();
    const slow = {
      kind: 'text' as const,
      text: 'Krótki tekst testowy na potrzeby limitu.',
      firstTokenDelayMs: 2_500,
    };
    ai.enqueue(slow, slow);
    // Two running calls, one on each instance: each instance alone holds one. A stream's
    // answer starts with the model's first token, so both are asked at once.
    const running = Promise.all([generate(token), generate(token)]);
    await ai.whenRequested(2, 10_000);
    const third = await generate(token);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBeTruthy();
    const [first, second] = await running;
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(cluster.instanceOf(first)?.name).not.toBe(cluster.instanceOf(second)?.name);
    await Promise.all([readStream(first), readStream(second)]);

    // Two calls started, RATE_PER_MINUTE allowed in a minute, whichever instance takes them.
    const answeredBy = new Set<string>();
    for (let i = 2; i < RATE_PER_MINUTE; i += 1) {
      const res = await generate(token);
      expect(res.status).toBe(200);
      answeredBy.add(cluster.instanceOf(res)?.name ?? '?');
      const { lines } = await readStream(res);
      expect(lines.at(-1)?.type).toBe('final');
    }
    expect(answeredBy.size).toBe(2);
    for (let i = 0; i < 2; i += 1) {
      const refused = await generate(token);
      expect(refused.status).toBe(429);
    }
  }, 60_000);

  it('stream answers through nginx as they are written, and keep a quiet stream open with heartbeats', async () => {
    const account = addAccount(cluster, 'stream@example.com');
    const token = await accessToken(cluster.url, account);
    ai.reset();
    const words = Array.from({ length: 20 }, (_, i) => `słowo${i}`).join(' ');
    ai.enqueue({ kind: 'text', text: `${words}.`, tokenDelayMs: 150 });
    const started = Date.now();
    let firstDelta = 0;
    const streamed = await readStream(await generate(token), (line) => {
      if (line.type === 'delta' && !firstDelta) firstDelta = Date.now() - started;
    });
    const total = Date.now() - started;
    expect(streamed.lines.at(-1)?.type).toBe('final');
    expect(firstDelta).toBeGreaterThan(0);
    expect(firstDelta).toBeLessThan(total - 1_500);

    // Quiet mid-answer for longer than nginx's proxy_read_timeout: an answer over 600 characters
    // (the article's limit) is asked to be shortened, and the second call stays silent. The empty lines GEM writes
    // keep the stream open. (Before the first token nothing is sent at all: the answer's status
    // waits for it, so proxy_read_timeout must also exceed GEM_AI_TIMEOUT_MS.)
    const long = Array.from({ length: 30 }, (_, i) => `To jest zdanie numer ${i} o rynku.`).join(' ');
    ai.enqueue(
      { kind: 'text', text: long, tokenDelayMs: 0 },
      { kind: 'text', text: 'Krótsza odpowiedź po namyśle.', firstTokenDelayMs: (READ_TIMEOUT_S + 3) * 1000 },
    );
    const quiet = await readStream(await generateArticle(token));
    expect(quiet.broken).toBe(false);
    expect(quiet.blankLines).toBeGreaterThanOrEqual(1);
    expect(quiet.lines.some((l) => l.type === 'restart')).toBe(true);
    expect(quiet.lines.at(-1)?.type).toBe('final');
  }, 60_000);

  it('read each feed and crawl each site once per round, not once per instance', async () => {
    await feeds.waitForRequest('/pwc.json');
    await feeds.waitForRequest('/technology.json');
    await site.waitForRequest('/pl/raport.html');
    // Until the rounds that read them are over (the tasks as feed-refresher.ts and crawler.ts
    // name them), so every request of theirs is counted below, on whichever instance they ran.
    await expect
      .poll(() => roundsOver(['market-research.feed-refresh', 'competitor-search.crawl']), {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(true);
    const elapsedRounds = Math.floor((Date.now() - startedAt) / 60_000) + 1;
    for (const feed of ['/pwc.json', '/technology.json']) {
      const n = feeds.requests(feed).length;
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(elapsedRounds);
    }
    const robots = site.requests('/robots.txt').length;
    expect(robots).toBeGreaterThanOrEqual(1);
    expect(robots).toBeLessThanOrEqual(elapsedRounds);
    // The items are there through either instance.
    const token = await accessToken(cluster.url, addAccount(cluster, 'feeds@example.com'));
    for (const instance of cluster.state.instances) {
      const res = await fetch(`${cluster.direct(instance)}/api/markets/pwc`, { headers: bearer(token) });
      expect(res.status).toBe(200);
      expect(JSON.stringify(await res.json())).toContain('Wiadomość p1');
    }
  }, 60_000);

  it('apply a revoked grant on both instances within the access cache window', async () => {
    const account = addAccount(cluster, 'revoked@example.com');
    const token = await accessToken(cluster.url, account);
    // Both instances have said yes, and keep that for at most a minute.
    for (const instance of cluster.state.instances) {
      const res = await fetch(`${cluster.direct(instance)}/api/markets`, { headers: bearer(token) });
      expect(res.status).toBe(200);
    }
    const warmed = Date.now();
    const revoke = cluster.gem(['access', 'revoke', account.email]);
    expect(revoke.status, revoke.stderr).toBe(0);
    const refused = async () => {
      for (let i = 0; i < 2; i += 1) {
        const res = await fetch(`${cluster.url}/api/markets`, { headers: bearer(token) });
        if (res.status !== 403) return false;
      }
      for (const instance of cluster.state.instances) {
        const res = await fetch(`${cluster.direct(instance)}/api/markets`, { headers: bearer(token) });
        if (res.status !== 403) return false;
      }
      return true;
    };
    await eventually(refused, 65_000 - (Date.now() - warmed), 'both instances refuse the revoked user');
    // And it stays refused.
    expect(await refused()).toBe(true);
  }, 90_000);
});
