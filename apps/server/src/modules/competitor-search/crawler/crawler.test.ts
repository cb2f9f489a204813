import {
  fictionalSite,
  gzippedSitemap,
  htmlPage,
  rssOf,
  sitemap,
  sitemapIndex,
  startSiteHost,
  type PageFixture,
  type SiteHost,
} from '@gem/test-servers/site-host';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/test-database';
import type { Database } from '../../../db/client';
import { competitorCrawls, competitorPages } from '../../../db/schema/competitor-search';
import { publicAddressesOnly, type AddressPolicy } from '../../../integrations/http/address-policy';
import { createScheduler } from '../../../lib/scheduler';
import {
  COMPETITOR_CRAWL_TASK,
  createCompetitorCrawler,
  scheduleCompetitorCrawl,
  type CompetitorCrawler,
  type CrawlerOptions,
} from './crawler';
import { CRAWLER_TOKEN } from './robots';

const log = pino({ level: 'silent' });
let site: SiteHost;
let database: Database;
const crawlers: CompetitorCrawler[] = [];

beforeAll(async () => {
  site = await startSiteHost();
});
afterAll(async () => {
  await site?.close();
});
beforeEach(async () => {
  site.reset();
  database = await createTestDatabase();
  clock = Date.parse('2026-11-20T08:00:00Z');
  sleeps.length = 0;
});
afterEach(async () => {
  await Promise.all(crawlers.splice(0).map((c) => c.close()));
  await database?.close();
});

// A virtual clock: the politeness pause moves it on instead of waiting.
let clock = 0;
const sleeps: number[] = [];
const sleep = async (ms: number) => {
  sleeps.push(ms);
  clock += ms;
};
const now = () => new Date(clock);

// The site host runs on 127.0.0.1: GEM may reach it and nothing else private.
const onlyTheSiteHost: AddressPolicy = (a) => a === '127.0.0.1' || publicAddressesOnly(a);
const competitor = () => ({ key: 'fikcja', name: 'Fikcyjna Firma', site: site.url('/pl/') });

function crawler(overrides: Partial<CrawlerOptions> = {}) {
  const c = createCompetitorCrawler({
    db: database.db,
    competitors: [competitor()],
    delayMs: 1000,
    maxPagesPerRound: 100,
    allowPrivateHosts: false,
    isPermittedAddress: onlyTheSiteHost,
    log,
    timeoutMs: 5_000,
    now,
    sleep,
    ...overrides,
  });
  crawlers.push(c);
  return c;
}

const crawlOnce = async (overrides: Partial<CrawlerOptions> = {}) => (await crawler(overrides).crawl())[0]!;
const pages = async () =>
  (await database.db.select().from(competitorPages).orderBy(competitorPages.url)).map((p) => ({
    ...p,
    path: new URL(p.url).pathname + new URL(p.url).search,
  }));
const paths = async () => (await pages()).map((p) => p.path);
const crawlRow = async () =>
  (await database.db.select().from(competitorCrawls).where(eq(competitorCrawls.competitorKey, 'fikcja')))[0];

const page = (title: string, extra: Omit<PageFixture, 'title'> = {}) => ({
  body: htmlPage({ title, ...extra }),
});
const robots = (text: string) => ({ body: text, contentType: 'text/plain' });

describe('crawling a competitor site', () => {
  it('reads robots.txt, a sitemap index with plain and gzipped sitemaps, lastmod and page dates', async () => {
    site.load({
      '/robots.txt': robots(`User-agent: *\nAllow: /\n\nSitemap: ${site.url('/sitemap_index.xml')}\n`),
      '/sitemap_index.xml': {
        body: sitemapIndex([
          { loc: site.url('/en/sitemap.xml') },
          { loc: site.url('/pl/sitemap-1.xml') },
          { loc: site.url('/pl/sitemap-2.xml.gz') },
        ]),
        contentType: 'application/xml',
      },
      '/en/sitemap.xml': {
        body: sitemap([{ loc: site.url('/en/report/') }]),
        contentType: 'application/xml',
      },
      '/pl/sitemap-1.xml': {
        body: sitemap([
          { loc: site.url('/pl/meta/'), lastmod: '2026-01-01' },
          { loc: site.url('/pl/json-ld/'), lastmod: '2026-01-01' },
        ]),
        contentType: 'application/xml',
      },
      '/pl/sitemap-2.xml.gz': gzippedSitemap([{ loc: site.url('/pl/lastmod-only/'), lastmod: '2026-04-05' }]),
      '/pl/': page('Strona główna'),
      '/pl/meta/': page('Z metadanymi', { publishedTime: '2026-03-01T10:00:00Z' }),
      '/pl/json-ld/': page('Z JSON-LD', { jsonLdDate: '2026-02-02T10:00:00Z' }),
      '/pl/lastmod-only/': page('Tylko lastmod'),
      '/en/report/': page('English'),
    });
    const outcome = await crawlOnce();
    expect(outcome).toMatchObject({ stored: 4, failed: 0, error: null });
    const stored = await pages();
    expect(stored.map((p) => [p.path, p.publishedAt?.toISOString() ?? null])).toEqual([
      ['/pl/', null],
      ['/pl/json-ld/', '2026-02-02T10:00:00.000Z'],
      ['/pl/lastmod-only/', '2026-04-05T00:00:00.000Z'],
      ['/pl/meta/', '2026-03-01T10:00:00.000Z'],
    ]);
    expect(stored.find((p) => p.path === '/pl/meta/')).toMatchObject({
      competitorKey: 'fikcja',
      title: 'Z metadanymi | Fikcyjna Firma Doradcza',
      sample: false,
    });
    expect(stored.find((p) => p.path === '/pl/meta/')!.bodyText).toContain('Z metadanymi: analiza rynku');
    // Only URLs under the site: the English pages are never fetched.
    expect(site.requests('/en/report/')).toHaveLength(0);
    expect(site.requests('/robots.txt')[0]!.headers['user-agent']).toContain(CRAWLER_TOKEN);
    expect(await crawlRow()).toMatchObject({ lastError: null, pagesLastRound: 4 });
  });

  it('looks for a sitemap in the usual places when robots.txt names none, and reads feeds the start page names', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nDisallow:\n'),
      '/pl/': page('Start', { feeds: ['/pl/feed.xml'] }),
      '/pl/sitemap.xml': { body: sitemap([{ loc: site.url('/pl/a/') }]), contentType: 'application/xml' },
      '/pl/feed.xml': {
        body: rssOf('Aktualności', [
          { link: site.url('/pl/from-feed/'), title: 'Z kanału', date: '2026-06-01T12:00:00Z' },
        ]),
        contentType: 'application/rss+xml',
      },
      '/pl/a/': page('A'),
      '/pl/from-feed/': page('Z kanału'),
    });
    await crawlOnce();
    expect(await paths()).toEqual(['/pl/', '/pl/a/', '/pl/from-feed/']);
    expect((await pages()).find((p) => p.path === '/pl/from-feed/')!.publishedAt).toEqual(
      new Date('2026-06-01T12:00:00Z'),
    );
  });

  it('honours robots.txt: the group for GEM’s agent over `*`, Disallow, and a Crawl-delay larger than its own', async () => {
    site.load({
      '/robots.txt': robots(
        `User-agent: *\nDisallow: /\n\nUser-agent: ${CRAWLER_TOKEN}\nDisallow: /pl/members/\nCrawl-delay: 3\n\nSitemap: ${site.url('/pl/sitemap.xml')}\n`,
      ),
      '/pl/sitemap.xml': {
        body: sitemap([{ loc: site.url('/pl/public/') }, { loc: site.url('/pl/members/only/') }]),
        contentType: 'application/xml',
      },
      '/pl/': page('Start', { links: ['/pl/members/area/'] }),
      '/pl/public/': page('Publiczna'),
      '/pl/members/only/': page('Dla członków'),
      '/pl/members/area/': page('Strefa'),
    });
    await crawlOnce();
    expect(await paths()).toEqual(['/pl/', '/pl/public/']);
    expect(site.requests().filter((r) => r.path.startsWith('/pl/members/'))).toHaveLength(0);
    // Crawl-delay: 3 s between two requests to the host, not the configured 1 s.
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.every((ms) => ms === 3000)).toBe(true);

    site.set('/robots.txt', robots('User-agent: *\nDisallow: /pl/\n'));
    const before = site.requests().length;
    await crawlOnce();
    expect(
      site
        .requests()
        .slice(before)
        .filter((r) => r.path.startsWith('/pl/')),
    ).toEqual([]);
  });

  it('waits the configured delay between two requests to the host', async () => {
    site.load(fictionalSite(site.origin, '/pl/', 5));
    await crawlOnce({ delayMs: 1500 });
    const requests = site.requests().length;
    expect(requests).toBe(8); // robots.txt, the start page, the sitemap, five articles
    // Each request after the first waited its turn; the crawl takes no time of its own on this clock.
    expect(sleeps).toEqual(Array.from({ length: requests - 1 }, () => 1500));
  });

  it('stores one row per page: tracking parameters stripped, <link rel=canonical> under the site preferred', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/sitemap.xml': {
        body: sitemap([
          { loc: site.url('/pl/a/?utm_source=newsletter&utm_medium=email') },
          { loc: site.url('/pl/a/?gclid=abc') },
          { loc: site.url('/pl/a/#section') },
          { loc: site.url('/pl/print/a/') },
          { loc: site.url('/pl/offsite-canonical/') },
        ]),
        contentType: 'application/xml',
      },
      '/pl/': page('Start'),
      '/pl/a/': page('A'),
      '/pl/print/a/': page('A do druku', { canonical: site.url('/pl/a/?fbclid=zzz') }),
      '/pl/offsite-canonical/': page('Kanoniczny gdzie indziej', {
        canonical: 'https://elsewhere.example/a/',
      }),
    });
    await crawlOnce();
    expect(await paths()).toEqual(['/pl/', '/pl/a/', '/pl/offsite-canonical/']);
    expect(site.requests('/pl/a/')).toHaveLength(1);
  });

  it('follows 301/302 chains within the site and stores the page where it ends', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/sitemap.xml': { body: sitemap([{ loc: site.url('/pl/old/') }]), contentType: 'application/xml' },
      '/pl/': page('Start'),
      '/pl/old/': { redirectTo: '/pl/older/', redirectStatus: 301 },
      '/pl/older/': { redirectTo: site.url('/pl/new/'), redirectStatus: 302 },
      '/pl/new/': page('Nowa'),
    });
    const outcome = await crawlOnce();
    expect(outcome.error).toBeNull();
    expect(await paths()).toEqual(['/pl/', '/pl/new/']);
    // Every hop waited its turn too.
    expect(sleeps).toHaveLength(site.requests().length - 1);
  });

  it('refuses a redirect to a private address, and says so', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/sitemap.xml': {
        body: sitemap([{ loc: site.url('/pl/metadata/') }, { loc: site.url('/pl/ok/') }]),
        contentType: 'application/xml',
      },
      '/pl/': page('Start'),
      '/pl/metadata/': { redirectTo: 'http://169.254.169.254/latest/meta-data/' },
      '/pl/ok/': page('OK'),
    });
    const outcome = await crawlOnce();
    expect(outcome).toMatchObject({ stored: 2, failed: 1 });
    expect(outcome.error).toMatch(
      /1 page could not be read: .*\/pl\/metadata\/: 169\.254\.169\.254 is not an address GEM may connect to/,
    );
    expect((await crawlRow())!.lastError).toBe(outcome.error);
  });

  it('reaches a site on a private address only with GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS', async () => {
    site.load(fictionalSite(site.origin, '/pl/', 1));
    const refused = await crawlOnce({ isPermittedAddress: undefined, allowPrivateHosts: false });
    expect(refused.error).toMatch(
      /could not read .*robots\.txt \(127\.0\.0\.1 is not an address GEM may connect to.*GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS/,
    );
    expect(site.requests()).toHaveLength(0);
    const allowed = await crawlOnce({ isPermittedAddress: undefined, allowPrivateHosts: true });
    expect(allowed).toMatchObject({ stored: 2, error: null });
  });

  it('waits as long as a 429’s Retry-After asks, then reads the page', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/sitemap.xml': { body: sitemap([{ loc: site.url('/pl/busy/') }]), contentType: 'application/xml' },
      '/pl/': page('Start'),
      '/pl/busy/': [{ status: 429, headers: { 'retry-after': '7' }, body: 'slow down' }, page('Zajęta')],
    });
    const outcome = await crawlOnce();
    expect(outcome).toMatchObject({ stored: 2, failed: 0, error: null });
    expect(sleeps).toContain(7000);
    expect(site.requests('/pl/busy/')).toHaveLength(2);
  });

  it('stops for the round when the site asks for a long pause', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/': { status: 429, headers: { 'retry-after': '3600' } },
    });
    const outcome = await crawlOnce();
    expect(outcome.error).toBe(
      'the site asked GEM to wait 3600 s (HTTP 429), so it stopped crawling it this round',
    );
    expect(sleeps.every((ms) => ms < 3_600_000)).toBe(true);
  });

  it('records a 5xx page and goes on; stops after five failures in a row', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/sitemap.xml': {
        body: sitemap([{ loc: site.url('/pl/broken/') }, { loc: site.url('/pl/fine/') }]),
        contentType: 'application/xml',
      },
      '/pl/': page('Start'),
      '/pl/broken/': { status: 500, body: 'Internal Server Error' },
      '/pl/fine/': page('Dobra'),
    });
    const outcome = await crawlOnce();
    expect(outcome).toMatchObject({ stored: 2, failed: 1 });
    expect(outcome.error).toMatch(/\/pl\/broken\/: HTTP 500/);

    site.reset();
    const many = Array.from({ length: 8 }, (_, i) => site.url(`/pl/down-${i}/`));
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/sitemap.xml': { body: sitemap(many.map((loc) => ({ loc }))), contentType: 'application/xml' },
      '/pl/': { status: 503, body: 'down' },
      ...Object.fromEntries(many.map((u) => [new URL(u).pathname, { status: 502 }])),
    });
    const down = await crawlOnce();
    expect(down.failed).toBe(5);
    expect(down.error).toMatch(
      /^5 pages in a row could not be read, so GEM stopped crawling the site this round/,
    );
  });

  it('gives up on a page that hangs, at the deadline, and on one larger than the cap', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/sitemap.xml': {
        body: sitemap([
          { loc: site.url('/pl/hang/') },
          { loc: site.url('/pl/huge/') },
          { loc: site.url('/pl/fine/') },
        ]),
        contentType: 'application/xml',
      },
      '/pl/': page('Start'),
      '/pl/hang/': { hang: true },
      '/pl/huge/': { body: htmlPage({ title: 'Ogromna' }), padBytes: 1024 * 1024 },
      '/pl/fine/': page('Dobra'),
    });
    const outcome = await crawlOnce({ timeoutMs: 500, maxPageBytes: 64 * 1024 });
    expect(outcome).toMatchObject({ stored: 2, failed: 2 });
    expect(outcome.error).toMatch(/\/pl\/hang\/: no complete answer within 500 ms/);
    expect(outcome.error).toMatch(/\/pl\/huge\/: the page is larger than 65536 bytes/);
    expect(await paths()).toEqual(['/pl/', '/pl/fine/']);
  });

  it('skips noindex pages (meta robots, X-Robots-Tag) and non-HTML documents, and drops a page that became noindex', async () => {
    site.load({
      '/robots.txt': robots('User-agent: *\nAllow: /\n'),
      '/pl/sitemap.xml': {
        body: sitemap(
          ['/pl/meta-noindex/', '/pl/header-noindex/', '/pl/other-bot/', '/pl/report.pdf', '/pl/later/'].map(
            (p) => ({
              loc: site.url(p),
            }),
          ),
        ),
        contentType: 'application/xml',
      },
      '/pl/': page('Start'),
      '/pl/meta-noindex/': page('Ukryta', { robots: 'noindex' }),
      '/pl/header-noindex/': {
        ...page('Ukryta w nagłówku'),
        headers: { 'x-robots-tag': `${CRAWLER_TOKEN}: noindex` },
      },
      '/pl/other-bot/': { ...page('Dla innych'), headers: { 'x-robots-tag': 'otherbot: noindex' } },
      '/pl/report.pdf': { body: '%PDF-1.7 binary', contentType: 'application/pdf' },
      '/pl/later/': page('Później ukryta'),
    });
    const first = await crawlOnce();
    expect(first).toMatchObject({ stored: 3, skipped: 3, failed: 0, error: null });
    expect(await paths()).toEqual(['/pl/', '/pl/later/', '/pl/other-bot/']);

    site.set('/pl/later/', { ...page('Później ukryta'), headers: { 'x-robots-tag': 'noindex' } });
    await crawlOnce();
    expect(await paths()).toEqual(['/pl/', '/pl/other-bot/']);
  });

  it('reads a large sitemap index newest first and stops once the older sitemaps could add nothing to the round', async () => {
    // Four sitemaps of 3,000 pages each, a minute apart, listed oldest first; the index dates
    // each by its newest page. Four pages a round: the start page and the three newest articles
    // robots.txt allows, out of the 16 candidates the round keeps.
    const perSitemap = 3_000;
    const newest = Date.parse('2026-11-19T12:00:00Z');
    const dateOf = (n: number) => new Date(newest - n * 60_000).toISOString();
    const xml = (body: string) => ({ body, contentType: 'application/xml' });
    const sitemapOf = (k: number) =>
      sitemap(
        Array.from({ length: perSitemap }, (_, i) => ({
          loc: site.url(`/pl/article-${k * perSitemap + i}/`),
          lastmod: dateOf(k * perSitemap + i),
        })),
      );
    site.load({
      '/robots.txt': robots(
        `User-agent: *\nDisallow: /pl/article-1/\n\nSitemap: ${site.url('/sitemap_index.xml')}\n`,
      ),
      '/sitemap_index.xml': xml(
        sitemapIndex(
          [3, 2, 1, 0].map((k) => ({
            loc: site.url(`/pl/sitemap-${k}.xml`),
            lastmod: dateOf(k * perSitemap),
          })),
        ),
      ),
      ...Object.fromEntries([0, 1, 2, 3].map((k) => [`/pl/sitemap-${k}.xml`, xml(sitemapOf(k))])),
      '/pl/': page('Start'),
      ...Object.fromEntries([0, 1, 2, 3].map((n) => [`/pl/article-${n}/`, page(`Artykuł ${n}`)])),
    });
    const outcome = await crawlOnce({ maxPagesPerRound: 4 });
    expect(site.requests().map((r) => r.path)).toEqual([
      '/robots.txt',
      '/pl/',
      '/sitemap_index.xml',
      '/pl/sitemap-0.xml',
      '/pl/article-0/',
      '/pl/article-2/',
      '/pl/article-3/',
    ]);
    // The page robots.txt disallows took no place: nothing was skipped.
    expect(outcome).toMatchObject({ stored: 4, skipped: 0, failed: 0, error: null });
    expect((await pages()).find((p) => p.path === '/pl/article-0/')!.publishedAt).toEqual(
      new Date(dateOf(0)),
    );
  });

  it('asks again with the stored validators: a 304 keeps the row; changed pages come first; the round has a cap', async () => {
    site.load(fictionalSite(site.origin, '/pl/', 6, { lastmod: '2026-11-01' }));
    await crawlOnce();
    const before = await pages();
    expect(before).toHaveLength(7);

    // The next round: one article changed since (newer lastmod), and a cap of two pages.
    clock += 3600_000;
    const routes = fictionalSite(site.origin, '/pl/', 6, { lastmod: '2026-11-01' });
    const entries = [1, 2, 3, 4, 5, 6].map((n) => ({
      loc: site.url(`/pl/insights/article-${n}/`),
      lastmod: n === 5 ? new Date(clock).toISOString() : '2026-11-01',
    }));
    routes['/pl/sitemap.xml'] = { body: sitemap(entries), contentType: 'application/xml' };
    routes['/pl/insights/article-5/'] = { ...page('Raport 5, poprawiony'), etag: '"a5-v2"' };
    site.reset();
    site.load(routes);
    const second = await crawlOnce({ maxPagesPerRound: 2 });
    expect(second).toMatchObject({ stored: 1, unchanged: 1 });
    // The start page (304 by its validator), then the changed article: nothing else this round.
    expect(site.requests().map((r) => r.path)).toEqual([
      '/robots.txt',
      '/pl/',
      '/pl/sitemap.xml',
      '/pl/insights/article-5/',
    ]);
    expect(site.requests('/pl/')[0]!.headers['if-none-match']).toBe('"home"');
    const after = await pages();
    expect(after).toHaveLength(7);
    expect(after.find((p) => p.path === '/pl/insights/article-5/')!.title).toBe(
      'Raport 5, poprawiony | Fikcyjna Firma Doradcza',
    );
    // The unchanged article rows are still there, as they were.
    expect(after.find((p) => p.path === '/pl/insights/article-1/')!.fetchedAt).toEqual(
      before.find((p) => p.path === '/pl/insights/article-1/')!.fetchedAt,
    );

    // Without a cap, the rest are asked for with If-None-Match and answer 304.
    site.reset();
    site.load(routes);
    const third = await crawlOnce();
    expect(third).toMatchObject({ stored: 0, unchanged: 7 });
    expect(site.requests('/pl/insights/article-1/')[0]!.headers['if-none-match']).toBe('"a1"');
  });
});

describe('the crawl round as background work', () => {
  it('runs on one instance at a time', async () => {
    site.load(fictionalSite(site.origin, '/pl/', 2));
    const instance = () => {
      const scheduler = createScheduler({ db: database.db, log });
      scheduleCompetitorCrawl(scheduler, crawler(), 360);
      return scheduler;
    };
    const [a, b] = [instance(), instance()];
    const ran = await Promise.all([a.runNow(COMPETITOR_CRAWL_TASK), b.runNow(COMPETITOR_CRAWL_TASK)]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(site.requests('/robots.txt')).toHaveLength(1);
    expect(await paths()).toHaveLength(3);
    // Not due again until the interval has passed.
    expect(await a.runNow(COMPETITOR_CRAWL_TASK)).toBe(false);
    await Promise.all([a.stop(), b.stop()]);
  });
});
