import { adminPaths } from '@gem/contracts/admin-paths';
import { integrationsResponseSchema, type IntegrationsResponse } from '@gem/contracts/admin-integrations';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/embedded-sign-in';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { competitorCrawls, competitorPages } from '../../db/schema/competitor-search';
import { generations } from '../../db/schema/generations';
import { marketFeedItems, marketFeeds } from '../../db/schema/market-research';
import { users } from '../../db/schema/users';
import { CRM_CHECK_TTL_MS } from './admin-integrations.service';

/**
 * The integrations' page (issue 30): what the records say about the AI service, the feeds and
 * the competitors' crawl, a real call to Salesforce (at an address where nothing listens: not
 * reachable; the embedded CRM is GEM's own database), the metrics address, and the settings beside each.
 */

const MINUTE = 60_000;
let clock = Date.parse('2026-05-04T12:00:00Z');
let issuer: OidcIssuer;
let database: Database;
let embedded: App;
let salesforce: App;
let admin: string;

function config(overrides: Partial<Config> = {}): Config {
  const base = testConfig();
  return testConfig({ auth: externalAuth(issuer.issuer), access: base.access, ...overrides });
}

beforeAll(async () => {
  [issuer, database] = await Promise.all([startOidcIssuer(), createTestDatabase()]);
  const base = testConfig();
  embedded = await buildTestApp({
    config: config({
      ai: {
        ...base.ai,
        service: { provider: 'openai', model: 'gpt-4o', apiKey: 'sk-secret-4411', baseUrl: undefined },
      },
      metrics: { host: '127.0.0.1', port: 9464 },
    }),
    database,
    now: () => clock,
  });
  const deadPort = await freePort();
  salesforce = await buildTestApp({
    config: config({
      metrics: null,
      crm: {
        provider: 'salesforce',
        timeoutMs: 2_000,
        salesforce: {
          loginUrl: `http://127.0.0.1:${deadPort}`,
          clientId: 'gem-client',
          apiVersion: '65.0',
          auth: { flow: 'client-credentials', clientSecret: 'sf-secret-9902' },
          mapping: base.crm.salesforce?.mapping ?? (await import('../../config/crm')).defaultCrmMapping,
        },
      },
    }),
    database,
    now: () => clock,
  });
  admin = `Bearer ${await issuer.sign(accessClaims('admin'))}`;
  // Each app reads the issuer's keys before the tests ask anything (slow on a busy machine).
  for (const app of [embedded, salesforce]) {
    const res = await app.inject({
      url: '/api/identity/check-app-access',
      headers: { authorization: admin },
    });
    expect(res.statusCode).toBe(200);
  }

  const { db } = database;
  const [user] = await db
    .insert(users)
    .values({ issuer: issuer.issuer, subject: 'writer', email: 'writer@example.com' })
    .returning({ id: users.id });
  const at = (minutesAgo: number) => new Date(clock - minutesAgo * MINUTE);
  const call = (
    minutesAgo: number,
    outcome: 'succeeded' | 'failed' | 'cancelled',
    errorCode: string | null = null,
  ) => ({
    userId: user!.id,
    generator: 'article',
    input: {},
    latencyMs: 900,
    outcome,
    errorCode,
    model: 'gpt-4o',
    createdAt: at(minutesAgo),
  });
  await db
    .insert(generations)
    .values([
      call(90, 'failed', 'ai_unavailable'),
      call(50, 'succeeded'),
      call(20, 'cancelled'),
      call(5, 'failed', 'ai_timeout'),
      call(2, 'succeeded'),
      call(1, 'failed', 'ai_busy'),
    ]);

  const [first, second] = base.feeds.sources;
  await db.insert(marketFeeds).values([
    {
      key: first!.key,
      url: first!.url,
      lastSuccessAt: at(30),
      lastAttemptAt: at(10),
      lastFailureAt: at(10),
      failingSince: at(10),
      lastError: 'HTTP 503 from the feed',
      consecutiveFailures: 1,
    },
    // Read from another address before the feeds file changed: none of it is the feed's now.
    { key: second!.key, url: 'https://old.example/feed.xml', lastSuccessAt: at(600), lastError: 'old' },
  ]);
  await db.insert(marketFeedItems).values(
    [1, 2, 3].map((i) => ({
      feedKey: first!.key,
      title: `Item ${i}`,
      url: `https://news.example/${i}`,
      sortAt: at(i),
      searchVector: sql`''::tsvector`,
    })),
  );

  const [deloitte] = base.competitors.list;
  await db.insert(competitorCrawls).values({
    competitorKey: deloitte!.key,
    lastStartedAt: at(40),
    lastFinishedAt: at(35),
    pagesLastRound: 2,
    lastError: 'robots.txt could not be read',
  });
  await db.insert(competitorPages).values(
    [1, 2].map((i) => ({
      competitorKey: deloitte!.key,
      url: `${deloitte!.site}page-${i}`,
      title: `Page ${i}`,
      sample: i === 2,
      searchVector: sql`''::tsvector`,
    })),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all([embedded?.close(), salesforce?.close()]);
  await Promise.all([database?.close(), issuer?.close()]);
});

async function health(app: App, authorization = admin) {
  const res = await app.inject({ method: 'GET', url: adminPaths.integrations, headers: { authorization } });
  return { status: res.statusCode, body: res.json() as unknown, raw: res.body };
}

const valueOf = (settings: IntegrationsResponse['ai']['settings'], name: string) =>
  settings.find((s) => s.name === name)?.value;

describe('the integrations page', () => {
  it('tells the AI service’s provider, model, last call and error rate over the last hour, with its settings', async () => {
    const { status, body, raw } = await health(embedded);
    expect(status).toBe(200);
    const { ai } = integrationsResponseSchema.parse(body);
    expect(ai).toMatchObject({ configured: true, provider: 'openai', model: 'gpt-4o', demo: false });
    expect(ai.lastCall).toEqual({
      at: new Date(clock - MINUTE).toISOString(),
      outcome: 'failed',
      errorCode: 'ai_busy',
    });
    // Five calls in the hour (the one 90 minutes ago is out), two failed; cancelled is no failure.
    expect(ai.lastHour).toEqual({ calls: 5, failures: 2, errorRate: 0.4 });
    expect(valueOf(ai.settings, 'GEM_AI_PROVIDER')).toBe('openai');
    expect(valueOf(ai.settings, 'GEM_AI_MODEL')).toBe('gpt-4o');
    expect(valueOf(ai.settings, 'GEM_AI_API_KEY')).toBe('set');
    // Secrets are named, never shown.
    expect(raw).not.toContain('sk-secret-4411');
  });

  it('tells each feed’s last good read, last error and items, and only of the address configured now', async () => {
    const { feeds } = integrationsResponseSchema.parse((await health(embedded)).body);
    const [first, second] = testConfig().feeds.sources;
    expect(feeds.list).toHaveLength(testConfig().feeds.sources.length);
    expect(feeds.list.find((f) => f.key === first!.key)).toMatchObject({
      sample: true,
      lastGoodReadAt: new Date(clock - 30 * MINUTE).toISOString(),
      failingSince: new Date(clock - 10 * MINUTE).toISOString(),
      lastError: 'HTTP 503 from the feed',
      items: 3,
    });
    expect(feeds.list.find((f) => f.key === second!.key)).toMatchObject({
      lastGoodReadAt: null,
      lastError: null,
      items: 0,
    });
    expect(feeds.settings.map((s) => s.name)).toContain('GEM_FEEDS_FILE');
  });

  it('tells each competitor’s last crawl, pages and last error, whether crawling is on and the search provider', async () => {
    const { competitors } = integrationsResponseSchema.parse((await health(embedded)).body);
    expect(competitors).toMatchObject({ crawl: false, searchProvider: 'index' });
    const [deloitte, other] = competitors.list;
    expect(deloitte).toMatchObject({
      lastCrawlFinishedAt: new Date(clock - 35 * MINUTE).toISOString(),
      pagesLastCrawl: 2,
      pages: 2,
      samplePages: 1,
      lastError: 'robots.txt could not be read',
    });
    expect(other).toMatchObject({ lastCrawlStartedAt: null, pages: 0 });
    expect(valueOf(competitors.settings, 'GEM_COMPETITORS_CRAWL')).toBe('false');
  });

  it('counts the embedded CRM (GEM’s own database) as reachable; the metrics address is shown', async () => {
    const { crm, metrics } = integrationsResponseSchema.parse((await health(embedded)).body);
    expect(crm).toMatchObject({ provider: 'embedded', reachable: true, error: null });
    expect(valueOf(crm.settings, 'GEM_CRM_PROVIDER')).toBe('embedded');
    expect(metrics).toEqual({
      address: '127.0.0.1:9464',
      settings: [
        { name: 'GEM_METRICS_PORT', value: '9464' },
        { name: 'GEM_METRICS_HOST', value: '127.0.0.1' },
      ],
    });
  });

  it('says a Salesforce that does not answer is unreachable, checks it again only after 30 seconds, and shows metrics off', async () => {
    const answer = await health(salesforce);
    expect(answer.status, answer.raw).toBe(200);
    const first = integrationsResponseSchema.parse(answer.body);
    expect(first.crm).toMatchObject({ provider: 'salesforce', reachable: false });
    expect(first.crm.error).toEqual(expect.any(String));
    expect(valueOf(first.crm.settings, 'GEM_SALESFORCE_CLIENT_SECRET')).toBe('set');
    expect(JSON.stringify(first)).not.toContain('sf-secret-9902');
    expect(first.metrics.address).toBeNull();
    expect(valueOf(first.metrics.settings, 'GEM_METRICS_PORT')).toBe('off');

    clock += CRM_CHECK_TTL_MS - 1;
    expect(integrationsResponseSchema.parse((await health(salesforce)).body).crm.checkedAt).toBe(
      first.crm.checkedAt,
    );
    clock += 1;
    expect(integrationsResponseSchema.parse((await health(salesforce)).body).crm.checkedAt).toBe(
      new Date(clock).toISOString(),
    );
  });

  it('is for administrators only', async () => {
    const { status } = await health(
      embedded,
      `Bearer ${await issuer.sign(accessClaims('someone', 'elsewhere.example'))}`,
    );
    expect(status).toBe(403);
  });
});
