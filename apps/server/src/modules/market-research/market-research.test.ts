import { errorResponseSchema } from '@gem/contracts/errors';
import {
  marketFeedResponseSchema,
  marketsResponseSchema,
  type MarketFeedResponse,
} from '@gem/contracts/market-research';
import { jsonFeed, rssFeed, startFeedServer, type FeedServer } from '@gem/test-servers/feed-server';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import type { Config } from '../../config';
import { testConfig } from '../../../test/test-config';
import type { Database } from '../../db/client';
import { createFeedReader } from '../../integrations/feeds/feed-reader';
import type { FeedSource } from '../../integrations/feeds/feeds-file';
import { createFeedRefresher } from './feed-refresher';

let issuer: OidcIssuer;
let feeds: FeedServer;
let database: Database;
let app: App;
let token: string;

function config(sources: FeedSource[]): Config {
  const base = testConfig();
  return testConfig({
    access: { ...base.access, allowedDomains: ['markets.example'] },
    auth: externalAuth(issuer.issuer),
    feeds: { ...base.feeds, sources, allowPrivateHosts: true },
  });
}

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
// 45 technology items, an hour apart, newest first; every third one is about banks.
const techItems = Array.from({ length: 45 }, (_, n) => ({
  id: `tech-${n}`,
  title: n % 3 === 0 ? `Banks and the cloud, part ${n}` : `Chip makers expand, part ${n}`,
  url: `https://www.tech.example/${n}`,
  html: n === 7 ? '<p>A story about <b>Żabka</b> stores.</p>' : `<p>Story number ${n}.</p>`,
  date: new Date(Date.now() - DAY - n * 3_600_000).toISOString(),
  authors: ['Tech Desk'],
}));

beforeAll(async () => {
  issuer = await startOidcIssuer();
  feeds = await startFeedServer();
  database = await createTestDatabase();
  feeds.set('/tech.json', { body: jsonFeed('Tech', techItems) });
  feeds.set('/orlen.xml', {
    body: rssFeed('Orlen', [
      { id: 'o1', title: 'Orlen news', url: 'https://orlen.example/1', date: new Date().toISOString() },
    ]),
  });
  // A slow source: a quarterly report series whose newest item is 200 days old.
  feeds.set('/zabka-reports.xml', {
    body: rssFeed('Żabka reports', [
      { id: 'z2', title: 'Q2 report', url: 'https://zabka.example/q2', date: daysAgo(200) },
      { id: 'z1', title: 'Q1 report', url: 'https://zabka.example/q1', date: daysAgo(290) },
    ]),
  });
  const sources: FeedSource[] = [
    { key: 'technology', url: feeds.url('/tech.json') },
    { key: 'priority-clients/orlen', url: feeds.url('/orlen.xml') },
    { key: 'priority-clients/zabka', url: feeds.url('/zabka-reports.xml') },
    { key: 'esg', url: 'gem-sample:esg.json' },
  ];
  const cfg = config(sources);
  await createFeedRefresher({
    db: database.db,
    sources,
    reader: createFeedReader(cfg.feeds),
    refreshMinutes: 15,
    retentionDays: 90,
    log: pino({ level: 'silent' }),
  }).refresh();
  app = await buildTestApp({ config: cfg, database });
  token = await issuer.sign(accessClaims('marketer', 'markets.example'));
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  await feeds?.close();
  await issuer?.close();
});

const get = (url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
const feedPage = async (url: string): Promise<MarketFeedResponse> => {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  return marketFeedResponseSchema.parse(res.json());
};

describe('GET /api/markets', () => {
  it('lists the catalogue with each area’s sub-areas and whether a feed is configured', async () => {
    const { markets } = marketsResponseSchema.parse((await get('/api/markets')).json());
    expect(markets.map((m) => m.slug)).toEqual([
      'pwc',
      'priority-clients',
      'competitors',
      'polish_business',
      'technology',
      'esg',
      'financial_sector',
      'retail_consumer',
      'leadership',
      'real_estate',
      'pharma',
    ]);
    const clients = markets.find((m) => m.slug === 'priority-clients')!;
    expect(clients.children).toHaveLength(13);
    expect(clients.children.find((c) => c.slug === 'zabka')?.name).toBe('Żabka');
    expect(clients.children.find((c) => c.slug === 'orlen')?.feedConfigured).toBe(true);
    expect(clients.feedConfigured).toBe(false);
    expect(markets.find((m) => m.slug === 'technology')?.feedConfigured).toBe(true);
  });
});

describe('GET /api/markets/:marketId', () => {
  it('pages through the items newest first with a cursor, with no gaps or repeats', async () => {
    const first = await feedPage('/api/markets/technology?limit=20');
    expect(first.market).toMatchObject({ slug: 'technology', name: 'Technology', subMarket: null });
    expect(first.feed).toMatchObject({ configured: true, sample: false, failingSince: null });
    expect(first.feed.lastRefreshedAt).not.toBeNull();
    const second = await feedPage(`/api/markets/technology?limit=20&cursor=${first.nextCursor}`);
    const third = await feedPage(`/api/markets/technology?limit=20&cursor=${second.nextCursor}`);
    expect([first.items.length, second.items.length, third.items.length]).toEqual([20, 20, 5]);
    expect(third.nextCursor).toBeNull();
    const titles = [...first.items, ...second.items, ...third.items].map((i) => i.title);
    expect(titles).toEqual(techItems.map((i) => i.title));
    const dates = [...first.items, ...second.items].map((i) => i.date_published!);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(first.items[0]).toMatchObject({
      url: 'https://www.tech.example/0',
      image: null,
      content_text: 'Story number 0.',
      authors: [{ name: 'Tech Desk' }],
    });
  });

  it('searches the area with full-text search, by word prefix, ignoring accents', async () => {
    const banks = await feedPage('/api/markets/technology?q=bank&limit=50');
    expect(banks.items).toHaveLength(15);
    expect(banks.items.every((i) => i.title.startsWith('Banks'))).toBe(true);
    const both = await feedPage('/api/markets/technology?q=cloud%20banks%20part');
    expect(both.items.length).toBeGreaterThan(0);
    const accent = await feedPage('/api/markets/technology?q=zabka');
    expect(accent.items.map((i) => i.title)).toEqual(['Chip makers expand, part 7']);
    const none = await feedPage('/api/markets/technology?q=hydrogen');
    expect(none.items).toEqual([]);
    // Search syntax is not passed through: these are plain words.
    const odd = await feedPage(`/api/markets/technology?q=${encodeURIComponent("bank & | ! ( ' :*")}`);
    expect(odd.items).toHaveLength(15);
    const paged = await feedPage('/api/markets/technology?q=chip&limit=20');
    const next = await feedPage(`/api/markets/technology?q=chip&limit=20&cursor=${paged.nextCursor}`);
    expect(paged.items.length + next.items.length).toBe(30);
  });

  it('marks the bundled sample feed as sample content', async () => {
    const esg = await feedPage('/api/markets/esg');
    expect(esg.feed.sample).toBe(true);
    expect(esg.items.length).toBeGreaterThan(0);
    expect(esg.items[0]!.image).toMatch(/^\/images\/feed-samples\//);
  });

  it('says when no feed is configured for an area', async () => {
    const page = await feedPage('/api/markets/leadership');
    expect(page.feed).toEqual({
      configured: false,
      sample: false,
      lastRefreshedAt: null,
      failingSince: null,
    });
    expect(page.items).toEqual([]);
  });

  it("answers 404 'Market not found' for an unknown market or sub-market", async () => {
    for (const url of [
      '/api/markets/nope',
      '/api/markets/priority-clients/nope',
      '/api/markets/technology/orlen',
      '/api/markets/PWC',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(errorResponseSchema.parse(res.json()).error).toMatchObject({
        code: 'not_found',
        message: 'Market not found',
      });
    }
  });

  it('refuses a bad cursor and a page size past the limit', async () => {
    expect((await get('/api/markets/technology?cursor=bm9wZQ')).statusCode).toBe(400);
    // Well-formed but out of any date range PostgreSQL takes: still the client's mistake, not a 500.
    const withCursor = (raw: string) =>
      get(`/api/markets/technology?cursor=${Buffer.from(raw).toString('base64url')}`);
    for (const raw of ['999999999999999.1', '253402300800000.1', '-999999999999999.1', '-1.5']) {
      const res = await withCursor(raw);
      expect(res.statusCode, `${raw}: ${res.body}`).toBe(400);
      expect(errorResponseSchema.parse(res.json()).error.code).toBe('bad_request');
    }
    // The first and the last millisecond a cursor may name: nothing before 1970, all before 9999.
    expect(marketFeedResponseSchema.parse((await withCursor('0.0')).json()).items).toEqual([]);
    expect(
      marketFeedResponseSchema.parse((await withCursor('253402300799999.1')).json()).items.length,
    ).toBeGreaterThan(0);
    expect((await get('/api/markets/technology?limit=500')).statusCode).toBe(400);
    expect((await get(`/api/markets/technology?q=${'x'.repeat(201)}`)).statusCode).toBe(400);
  });
});

describe('GET /api/markets/:marketId/:subMarketId', () => {
  it('gives the sub-area with its area and siblings', async () => {
    const page = await feedPage('/api/markets/priority-clients/orlen');
    expect(page.market.subMarket).toEqual({ slug: 'orlen', name: 'Orlen' });
    expect(page.market.children).toHaveLength(13);
    expect(page.items.map((i) => i.title)).toEqual(['Orlen news']);
  });

  it('shows every item the feed lists, however old (retention is 90 days)', async () => {
    const page = await feedPage('/api/markets/priority-clients/zabka');
    expect(page.items.map((i) => i.title)).toEqual(['Q2 report', 'Q1 report']);
    const ageDays = (Date.now() - Date.parse(page.items[0]!.date_published!)) / DAY;
    expect(Math.round(ageDays)).toBe(200);
  });
});

describe('the running server', () => {
  it('reads the feeds when it starts listening, and stops reading when it closes', async () => {
    const own = await createTestDatabase();
    const running = await buildTestApp({
      config: config([{ key: 'esg', url: 'gem-sample:esg.json' }]),
      database: own,
      background: true,
    });
    try {
      await running.listen({ port: 0, host: '127.0.0.1' });
      await expect
        .poll(
          async () => {
            const res = await running.inject({
              method: 'GET',
              url: '/api/markets/esg',
              headers: { authorization: `Bearer ${token}` },
            });
            return marketFeedResponseSchema.parse(res.json()).items.length;
          },
          // The first round runs on a loaded CI machine too: wait for it, not for a time.
          { timeout: 45_000 },
        )
        .toBeGreaterThan(0);
    } finally {
      await running.close();
      await own.close();
    }
  }, 60_000);

  it('lets feed images load from https: only once a real feed is configured', async () => {
    // The page policy: API answers carry no image sources.
    const res = await get('/');
    expect(res.headers['content-security-policy']).toContain("img-src 'self' data: blob: https: http:");
    const samplesOnly = await buildTestApp({
      config: config([{ key: 'esg', url: 'gem-sample:esg.json' }]),
      database,
    });
    try {
      const csp = String(
        (await samplesOnly.inject({ method: 'GET', url: '/' })).headers['content-security-policy'],
      );
      expect(csp).toContain("img-src 'self' data: blob:;");
    } finally {
      await samplesOnly.close();
    }
  });
});
