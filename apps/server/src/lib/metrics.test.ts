import type { AddressInfo } from 'node:net';
import { briefCreatorPaths } from '@gem/contracts/brief-creator';
import { writingToolPaths } from '@gem/contracts/writing-tools';
import { marketResearchPaths } from '@gem/contracts/market-research';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseConfig } from '../config';
import { startAiHarness, parseEvents, sampleInputs, type AiHarness } from '../../test/ai-harness';
import { deferred } from '../../test/deferred';
import type { App } from '../app';
import { createMetrics, serveMetrics, type MetricsServer } from './metrics';

/**
 * The metrics as Prometheus scrapes them: a GEM app counting into its registry, served by the
 * metrics server on a port of its own, after page, API and AI requests and a feed round.
 */

let h: AiHarness;
let app: App;
let server: MetricsServer;
let origin: string;

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${server.address.port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of one series, e.g. `gem_ai_calls_total{tool="article",…}`; undefined when absent. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const ok = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (ok) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const technologyRead = deferred();

beforeAll(async () => {
  h = await startAiHarness();
  const metrics = createMetrics({ processMetrics: true });
  // The feed round runs in the background after listen: the test waits for its 'technology' read.
  const feedRefresh = metrics.feedRefresh.bind(metrics);
  metrics.feedRefresh = (feed, result, at) => {
    feedRefresh(feed, result, at);
    if (feed === 'technology') technologyRead.resolve();
  };
  app = await h.app({ metrics, background: true });
  // Listening starts the scheduler: the feed round reads the bundled sample feeds.
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  server = await serveMetrics(metrics, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});

describe('the metrics', () => {
  it('count requests by route pattern and status, AI calls, feed rounds and the database', async () => {
    const authorization = await h.bearer('ala');
    expect((await fetch(`${origin}/api/ready`)).status).toBe(200);
    // A prerendered page: 200 once the web app is built, 503 before (npm test builds it after these tests).
    const loginStatus = String((await fetch(`${origin}/login`)).status);
    expect(['200', '503']).toContain(loginStatus);
    const market = await fetch(`${origin}/api/markets/technology?q=secret-words`, {
      headers: { authorization },
    });
    expect(market.status).toBe(200);
    expect((await fetch(`${origin}/api/markets/no-such-market`, { headers: { authorization } })).status).toBe(
      404,
    );
    expect((await fetch(`${origin}/api/nothing-here/4711`)).status).toBe(404);

    h.ai.enqueue({ kind: 'text', text: 'Przeczytaj nasz nowy raport o rynku pracy.' });
    const teaser = await fetch(`${origin}${writingToolPaths.generate('teaser-generator')}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(sampleInputs['teaser-generator']),
    });
    expect(parseEvents(await teaser.text()).at(-1)?.type).toBe('final');
    h.ai.enqueue(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
    );
    const failed = await fetch(`${origin}${writingToolPaths.generate('teaser-generator')}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(sampleInputs['teaser-generator']),
    });
    expect(failed.status).toBe(502);
    // The brief creator's stream says when its first text went out, the same way.
    h.ai.enqueue({ kind: 'object', value: briefChatTurn('Dobrze. Jaki jest cel kampanii i jej termin?') });
    const brief = await fetch(`${origin}${briefCreatorPaths.chatStream}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Chcę kampanię o cyfryzacji dla dyrektorów finansowych.' }),
    });
    expect(brief.status).toBe(200);
    await brief.text();

    await technologyRead.promise;
    const text = await scrape();

    const names = new Set(
      text
        .split('\n')
        .filter((l) => l.startsWith('# TYPE '))
        .map((l) => l.split(' ')[2]),
    );
    for (const name of [
      'gem_http_request_duration_seconds',
      'gem_ai_calls_total',
      'gem_ai_call_duration_seconds',
      'gem_ai_first_token_seconds',
      'gem_ai_tokens_total',
      'gem_ai_calls_refused_total',
      'gem_feed_refresh_total',
      'gem_feed_last_success_timestamp_seconds',
      'gem_crm_exports_total',
      'gem_crm_export_page_rows',
      'gem_db_info',
      // Node's own, from prom-client's default metrics.
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(names, name).toContain(name);
    }

    const requests = (route: string, status: string, method = 'GET') =>
      valueOf(text, 'gem_http_request_duration_seconds_count', { method, route, status });
    expect(requests('/api/ready', '200')).toBe(1);
    // Unbuilt, the page has no route of its own: the not-found handler answers it.
    expect(requests(loginStatus === '200' ? '/login' : 'unmatched', loginStatus)).toBe(1);
    // The route's pattern, never the URL: no ids, no query.
    expect(requests(marketResearchPaths.market, '200')).toBe(1);
    expect(requests(marketResearchPaths.market, '404')).toBe(1);
    expect(requests('unmatched', '404')).toBe(1);
    expect(requests('/api/writing-tools/teaser-generator', '200', 'POST')).toBe(1);
    expect(requests('/api/writing-tools/teaser-generator', '502', 'POST')).toBe(1);
    expect(text).not.toContain('secret-words');
    expect(text).not.toContain('no-such-market');
    expect(text).not.toContain('4711');

    const teaserCalls = { tool: 'teaser-generator' };
    expect(valueOf(text, 'gem_ai_calls_total', { ...teaserCalls, outcome: 'succeeded', code: '' })).toBe(1);
    expect(
      valueOf(text, 'gem_ai_calls_total', { ...teaserCalls, outcome: 'failed', code: 'ai_unavailable' }),
    ).toBe(1);
    expect(
      valueOf(text, 'gem_ai_call_duration_seconds_count', { ...teaserCalls, outcome: 'succeeded' }),
    ).toBe(1);
    expect(valueOf(text, 'gem_ai_first_token_seconds_count', teaserCalls)).toBe(1);
    expect(valueOf(text, 'gem_ai_first_token_seconds_count', { tool: 'brief-creator' })).toBe(1);
    expect(valueOf(text, 'gem_ai_tokens_total', { ...teaserCalls, kind: 'completion' })).toBeGreaterThan(0);
    expect(valueOf(text, 'gem_ai_tokens_total', { ...teaserCalls, kind: 'prompt' })).toBeGreaterThan(0);

    expect(valueOf(text, 'gem_feed_refresh_total', { feed: 'technology', result: 'updated' })).toBe(1);
    expect(valueOf(text, 'gem_feed_last_success_timestamp_seconds', { feed: 'technology' })).toBeGreaterThan(
      Date.now() / 1000 - 600,
    );

    const kind = inject('dbKind');
    expect(valueOf(text, 'gem_db_info', { kind })).toBe(1);
    if (kind === 'postgres') {
      expect(valueOf(text, 'gem_db_pool_connections')).toBeGreaterThan(0);
      expect(valueOf(text, 'gem_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'gem_db_pool_waiting_requests')).toBe(0);
      expect(valueOf(text, 'gem_db_pool_max_connections')).toBe(5);
    } else {
      expect(text).not.toContain('gem_db_pool_');
    }
  });

  it('are served at /metrics only, on 127.0.0.1 unless told otherwise', async () => {
    const config = parseConfig({});
    expect(config.metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseConfig({ GEM_METRICS_PORT: 'off' }).metrics).toBeNull();
    expect(() => parseConfig({ GEM_METRICS_PORT: '70000' })).toThrow(/GEM_METRICS_PORT/);

    const local = await serveMetrics(createMetrics(), { host: config.metrics!.host, port: 0 });
    try {
      expect(local.address.address).toBe('127.0.0.1');
      const base = `http://127.0.0.1:${local.address.port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(200);
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
      // A port already taken is an error the server logs, not a crash.
      await expect(
        serveMetrics(createMetrics(), { host: '127.0.0.1', port: local.address.port }),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await local.close();
    }
  });
});
