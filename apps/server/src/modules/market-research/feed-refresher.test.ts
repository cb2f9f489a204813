import {
  atomFeed,
  jsonFeed,
  rssFeed,
  startFeedServer,
  type FeedServer,
  type FixtureItem,
} from '@gem/test-servers/feed-server';
import { desc, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import { testConfig } from '../../../test/test-config';
import type { Database } from '../../db/client';
import { marketFeedItems, marketFeeds } from '../../db/schema/market-research';
import { createFeedReader, type FeedReader } from '../../integrations/feeds/feed-reader';
import type { FeedSource } from '../../integrations/feeds/feeds-file';
import { createScheduler, type Scheduler } from '../../lib/scheduler';
import { createFeedRefresher, FEED_REFRESH_TASK, type FeedRefresherOptions } from './feed-refresher';
import { saveDocument } from './feed-store';

const log = pino({ level: 'silent' });
const { samplesDir, sources: sampleSources } = testConfig().feeds;
let feeds: FeedServer;
let database: Database;

beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => {
  await feeds?.close();
});
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database?.close();
});

// A generous timeout, so a loaded machine does not fail a read; the hang case uses the quick one.
const reader = createFeedReader({ samplesDir, allowPrivateHosts: true, timeoutMs: 10_000 });
const quickReader = createFeedReader({ samplesDir, allowPrivateHosts: true, timeoutMs: 500 });
const refresher = (sources: FeedSource[], overrides: Partial<FeedRefresherOptions> = {}) =>
  createFeedRefresher({
    db: database.db,
    sources,
    reader,
    refreshMinutes: 15,
    retentionDays: 90,
    log,
    ...overrides,
  });

/** One GEM instance's background work: a scheduler with the feed round registered on it. */
const instance = (sources: FeedSource[], overrides: Partial<FeedRefresherOptions> = {}): Scheduler => {
  const scheduler = createScheduler({ db: database.db, log, now: overrides.now });
  refresher(sources, { scheduler, ...overrides });
  return scheduler;
};

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const item = (n: number, extra: Partial<FixtureItem> = {}): FixtureItem => ({
  id: `item-${n}`,
  title: `Story ${n}`,
  url: `https://news.example/story-${n}`,
  html: `<p>Body of story ${n}</p>`,
  date: daysAgo(n),
  authors: ['Reporter'],
  ...extra,
});

const itemsOf = (key: string) =>
  database.db
    .select()
    .from(marketFeedItems)
    .where(eq(marketFeedItems.feedKey, key))
    .orderBy(marketFeedItems.id);
const feedRow = async (key: string) =>
  (await database.db.select().from(marketFeeds).where(eq(marketFeeds.key, key)))[0]!;

describe('refreshing feeds', () => {
  it('stores the items of JSON Feed, RSS and Atom documents', async () => {
    feeds.set('/all/json', { body: jsonFeed('J', [item(1), item(2)]), contentType: 'application/feed+json' });
    feeds.set('/all/rss', { body: rssFeed('R', [item(3), item(4), item(5)]) });
    feeds.set('/all/atom', { body: atomFeed('A', [item(6)]) });
    const outcomes = await refresher([
      { key: 'technology', url: feeds.url('/all/json') },
      { key: 'esg', url: feeds.url('/all/rss') },
      { key: 'pharma', url: feeds.url('/all/atom') },
    ]).refresh();
    expect(outcomes.map((o) => o.status)).toEqual(['updated', 'updated', 'updated']);
    expect((await itemsOf('technology')).map((i) => i.title)).toEqual(['Story 1', 'Story 2']);
    expect(await itemsOf('esg')).toHaveLength(3);
    const [atom] = await itemsOf('pharma');
    expect(atom).toMatchObject({ title: 'Story 6', contentText: 'Body of story 6', authors: ['Reporter'] });
    expect((await feedRow('esg')).lastSuccessAt).toBeInstanceOf(Date);
  });

  it('asks again with If-None-Match and If-Modified-Since, and keeps everything on a 304', async () => {
    feeds.set('/cond/etag', { body: jsonFeed('E', [item(1)]), etag: '"e1"' });
    feeds.set('/cond/date', { body: rssFeed('D', [item(2)]), lastModified: 'Mon, 02 Mar 2026 08:00:00 GMT' });
    const sources = [
      { key: 'technology', url: feeds.url('/cond/etag') },
      { key: 'esg', url: feeds.url('/cond/date') },
    ];
    const r = refresher(sources);
    await r.refresh();
    const firstSuccess = (await feedRow('technology')).lastSuccessAt!;
    const outcomes = await r.refresh();
    expect(outcomes.map((o) => o.status)).toEqual(['unchanged', 'unchanged']);
    expect(feeds.requests('/cond/etag')[1]!.headers['if-none-match']).toBe('"e1"');
    expect(feeds.requests('/cond/date')[1]!.headers['if-modified-since']).toBe(
      'Mon, 02 Mar 2026 08:00:00 GMT',
    );
    expect(await itemsOf('technology')).toHaveLength(1);
    expect((await feedRow('technology')).lastSuccessAt!.getTime()).toBeGreaterThanOrEqual(
      firstSuccess.getTime(),
    );
  });

  it('does not write an unchanged document again when the host sends no validators', async () => {
    feeds.set('/same', { body: jsonFeed('S', [item(1)]) });
    const r = refresher([{ key: 'technology', url: feeds.url('/same') }]);
    expect((await r.refresh())[0]!.status).toBe('updated');
    expect((await r.refresh())[0]!.status).toBe('unchanged');
  });

  it('deduplicates across refreshes by item id and by URL without utm_* parameters', async () => {
    const path = '/dedupe';
    feeds.set(path, {
      body: jsonFeed('D', [
        item(1, { url: 'https://news.example/a?utm_source=monday' }),
        item(2, { url: 'https://news.example/b' }),
      ]),
    });
    const r = refresher([{ key: 'technology', url: feeds.url(path) }]);
    await r.refresh();
    feeds.set(path, {
      body: jsonFeed('D', [
        // Same id, new tracking parameters and a corrected title: the same item, updated.
        item(1, { url: 'https://news.example/a?utm_source=tuesday&utm_medium=x', title: 'Story 1, updated' }),
        // A new id for a URL already stored (tracking aside): the same item.
        item(22, { url: 'https://news.example/b?utm_campaign=spring' }),
        item(3, { url: 'https://news.example/c' }),
      ]),
    });
    const [outcome] = await r.refresh();
    expect(outcome).toMatchObject({ status: 'updated', added: 1, updated: 2 });
    const stored = await itemsOf('technology');
    expect(stored.map((i) => i.title)).toEqual(['Story 1, updated', 'Story 22', 'Story 3']);
    expect(stored.map((i) => i.canonicalUrl)).toEqual([
      'https://news.example/a',
      'https://news.example/b',
      'https://news.example/c',
    ]);
  });

  it('records an unexpected error as a plain message, never its text (a database error carries values)', async () => {
    const leaky: FeedReader = {
      read: async () => {
        throw new Error('Failed query: insert ... params: someone@example.com,secret-token');
      },
      parse: (doc) => reader.parse(doc),
    };
    const [outcome] = await refresher([{ key: 'esg', url: 'https://feeds.example/esg.xml' }], {
      reader: leaky,
    }).refresh();
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('see the server log') });
    const row = await feedRow('esg');
    expect(row.lastError).toBe('GEM could not read or store this feed (see the server log)');
    expect(JSON.stringify(row)).not.toContain('someone@example.com');
  });

  it.each([
    ['an HTTP 500', { status: 500, body: 'Internal Server Error' }, /HTTP 500/],
    ['a host that hangs', { hang: true }, /no complete answer within 500 ms/],
    ['invalid XML', { body: '<rss><channel><item><title>broken' }, /not a feed GEM can read/],
    ['a document that is not a feed', { body: '<html><body>maintenance</body></html>' }, /not a feed/],
  ])('keeps the last good items after %s, and records the failure', async (_what, route, message) => {
    const path = `/failing-${Math.random().toString(36).slice(2)}`;
    feeds.set(path, { body: rssFeed('F', [item(1), item(2)]) });
    const r = refresher(
      [{ key: 'esg', url: feeds.url(path) }],
      'hang' in route ? { reader: quickReader } : {},
    );
    await r.refresh();
    const success = (await feedRow('esg')).lastSuccessAt!;

    feeds.set(path, route);
    const [outcome] = await r.refresh();
    expect(outcome!.status).toBe('failed');
    expect(await itemsOf('esg')).toHaveLength(2);
    const row = await feedRow('esg');
    expect(row.lastError).toMatch(message);
    expect(row.failingSince).toBeInstanceOf(Date);
    expect(row.consecutiveFailures).toBe(1);
    expect(row.lastSuccessAt).toEqual(success);

    feeds.set(path, { body: rssFeed('F', [item(1), item(2), item(3)]) });
    await r.refresh();
    const healed = await feedRow('esg');
    expect(healed).toMatchObject({ failingSince: null, lastError: null, consecutiveFailures: 0 });
    expect(await itemsOf('esg')).toHaveLength(3);
  });

  it('keeps every item the feed lists, however old, and purges a dropped one a retention period after it left', async () => {
    const path = '/quarterly';
    // A slow series: one item 200 days old, one 400 days old, one undated.
    feeds.set(path, { body: jsonFeed('Q', [item(200), item(400), item(3, { date: undefined })]) });
    const start = new Date();
    let clock = start;
    const r = refresher([{ key: 'technology', url: feeds.url(path) }], {
      retentionDays: 90,
      now: () => clock,
    });
    expect((await r.refresh())[0]!.status).toBe('updated');
    expect((await itemsOf('technology')).map((i) => i.title)).toEqual(['Story 200', 'Story 400', 'Story 3']);

    // A year on, the same document (the content hash matches): still all there.
    clock = new Date(start.getTime() + 365 * DAY);
    expect((await r.refresh())[0]!.status).toBe('unchanged');
    expect(await itemsOf('technology')).toHaveLength(3);

    // The feed drops the 400-day-old item; it left now, so it stays for the retention period.
    const dropped = new Date(start.getTime() + 400 * DAY);
    clock = dropped;
    feeds.set(path, { body: jsonFeed('Q', [item(200), item(3, { date: undefined })]) });
    expect((await r.refresh())[0]!.status).toBe('updated');
    const afterDrop = await itemsOf('technology');
    expect(afterDrop.map((i) => [i.title, i.leftAt])).toEqual([
      ['Story 200', null],
      ['Story 400', dropped],
      ['Story 3', null],
    ]);

    clock = new Date(dropped.getTime() + 89 * DAY);
    await r.refresh();
    expect(await itemsOf('technology')).toHaveLength(3);

    clock = new Date(dropped.getTime() + 91 * DAY);
    await r.refresh();
    expect((await itemsOf('technology')).map((i) => i.title)).toEqual(['Story 200', 'Story 3']);
  });

  it('keeps a feed’s items through an outage and a 304, however long they last', async () => {
    const path = '/outage';
    const body = rssFeed('O', [item(200), item(1)]);
    feeds.set(path, { body, etag: '"v1"' });
    const start = new Date();
    let clock = start;
    const r = refresher([{ key: 'esg', url: feeds.url(path) }], { retentionDays: 90, now: () => clock });
    await r.refresh();
    expect(await itemsOf('esg')).toHaveLength(2);

    // Down for 200 days: every round fails, the items stay.
    feeds.set(path, { status: 503, body: 'Service Unavailable' });
    for (const days of [100, 200]) {
      clock = new Date(start.getTime() + days * DAY);
      expect((await r.refresh())[0]!.status).toBe('failed');
      expect(await itemsOf('esg')).toHaveLength(2);
    }

    // Back, with the same document: a 304 for another 200 days, the items stay.
    feeds.set(path, { body, etag: '"v1"' });
    for (const days of [300, 400]) {
      clock = new Date(start.getTime() + days * DAY);
      expect((await r.refresh())[0]!.status).toBe('unchanged');
    }
    expect(feeds.requests(path).at(-1)!.headers['if-none-match']).toBe('"v1"');
    const stored = await itemsOf('esg');
    expect(stored.map((i) => [i.title, i.leftAt])).toEqual([
      ['Story 200', null],
      ['Story 1', null],
    ]);
  });

  it('keeps an item the feed drops and lists again before the retention period is over', async () => {
    const path = '/flaky';
    feeds.set(path, { body: jsonFeed('F', [item(150), item(1)]) });
    const start = new Date();
    let clock = start;
    const r = refresher([{ key: 'pharma', url: feeds.url(path) }], { retentionDays: 90, now: () => clock });
    await r.refresh();
    clock = new Date(start.getTime() + 10 * DAY);
    feeds.set(path, { body: jsonFeed('F', [item(1)]) });
    await r.refresh();
    clock = new Date(start.getTime() + 80 * DAY);
    feeds.set(path, { body: jsonFeed('F', [item(150), item(1)]) });
    await r.refresh();
    expect((await itemsOf('pharma')).map((i) => [i.title, i.leftAt])).toEqual([
      ['Story 150', null],
      ['Story 1', null],
    ]);
    clock = new Date(start.getTime() + 365 * DAY);
    await r.refresh();
    expect(await itemsOf('pharma')).toHaveLength(2);
  });

  it('purges the items of a feed no longer in the feeds file a retention period after its last read', async () => {
    feeds.set('/removed', { body: jsonFeed('R', [item(1), item(300)]) });
    const start = new Date();
    await refresher([{ key: 'technology', url: feeds.url('/removed') }], { now: () => start }).refresh();
    const later = (days: number) =>
      refresher([], { retentionDays: 90, now: () => new Date(start.getTime() + days * DAY) });
    expect(await later(89).purge()).toBe(0);
    expect(await itemsOf('technology')).toHaveLength(2);
    expect(await later(91).purge()).toBe(2);
    expect(await itemsOf('technology')).toEqual([]);
  });

  it('reads the bundled sample feeds with no network, dated as recent news', async () => {
    const today = new Date();
    const outcomes = await refresher(sampleSources, { now: () => today }).refresh();
    expect(outcomes).toHaveLength(24);
    expect(outcomes.filter((o) => o.status !== 'updated')).toEqual([]);
    const all = await database.db.select().from(marketFeedItems);
    expect(all.length).toBeGreaterThanOrEqual(100);
    const newest = Math.max(...all.map((i) => i.publishedAt?.getTime() ?? 0));
    const ageDays = (today.getTime() - newest) / (24 * 60 * 60 * 1000);
    expect(ageDays).toBeGreaterThan(0);
    expect(ageDays).toBeLessThan(2);
    expect(all.every((i) => i.imageUrl === null || i.imageUrl.startsWith('/images/feed-samples/'))).toBe(
      true,
    );
    expect(all.some((i) => i.publishedAt === null)).toBe(true);
  });

  it('keeps the sample feeds whole and newest first as they are re-dated day after day', async () => {
    const start = new Date();
    let clock = start;
    const r = refresher(sampleSources, { retentionDays: 90, now: () => clock });
    await r.refresh();
    const before = await database.db.select().from(marketFeedItems);
    clock = new Date(start.getTime() + 200 * DAY);
    expect((await r.refresh()).filter((o) => o.status !== 'updated')).toEqual([]);
    const after = await database.db.select().from(marketFeedItems);
    expect(after.map((i) => i.id).sort()).toEqual(before.map((i) => i.id).sort());
    expect(after.every((i) => i.leftAt === null)).toBe(true);
    const newest = Math.max(...after.map((i) => i.publishedAt?.getTime() ?? 0));
    expect((clock.getTime() - newest) / DAY).toBeLessThan(2);
    for (const { key } of sampleSources) {
      const page = await database.db
        .select()
        .from(marketFeedItems)
        .where(eq(marketFeedItems.feedKey, key))
        .orderBy(desc(marketFeedItems.sortAt), desc(marketFeedItems.id));
      const dates = page.flatMap((i) => (i.publishedAt ? [i.publishedAt.getTime()] : []));
      expect(dates, key).toEqual([...dates].sort((a, b) => b - a));
    }
  });

  it('drops sample items when the feeds file points the area at a real feed instead', async () => {
    await refresher(sampleSources.filter((s) => s.key === 'esg')).refresh();
    expect((await itemsOf('esg')).length).toBeGreaterThan(0);
    feeds.set('/real-esg', { body: jsonFeed('R', [item(1)]) });
    await refresher([{ key: 'esg', url: feeds.url('/real-esg') }]).refresh();
    expect((await itemsOf('esg')).map((i) => i.title)).toEqual(['Story 1']);
  });
});

describe('several instances on one database', () => {
  it('reads each due feed once and stores no duplicates when two instances refresh at once', async () => {
    const paths = ['/multi/1', '/multi/2', '/multi/3', '/multi/4'];
    for (const [n, path] of paths.entries()) {
      feeds.set(path, { body: jsonFeed(`M${n}`, [item(1), item(2), item(3)]) });
    }
    const sources = ['technology', 'esg', 'pharma', 'leadership'].map((key, n) => ({
      key,
      url: feeds.url(paths[n]!),
    }));
    const [a, b] = [instance(sources), instance(sources)];
    const ran = await Promise.all([a.runNow(FEED_REFRESH_TASK), b.runNow(FEED_REFRESH_TASK)]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    for (const path of paths) expect(feeds.requests(path)).toHaveLength(1);
    expect(await database.db.select().from(marketFeedItems)).toHaveLength(12);

    // Not due again yet: neither instance reads them a second time.
    expect(await Promise.all([a.runNow(FEED_REFRESH_TASK), b.runNow(FEED_REFRESH_TASK)])).toEqual([
      false,
      false,
    ]);
    for (const path of paths) expect(feeds.requests(path)).toHaveLength(1);
  });

  it('reads a feed new to the feeds file at the next tick, without waiting for the interval', async () => {
    feeds.set('/early/tech', { body: jsonFeed('T', [item(1)]) });
    feeds.set('/early/esg', { body: jsonFeed('E', [item(2)]) });
    const before = [{ key: 'technology', url: feeds.url('/early/tech') }];
    expect(await instance(before).runNow(FEED_REFRESH_TASK)).toBe(true);
    expect(await instance(before).runNow(FEED_REFRESH_TASK)).toBe(false);

    // Another instance starts with a feeds file that adds a feed.
    const after = [...before, { key: 'esg', url: feeds.url('/early/esg') }];
    expect(await instance(after).runNow(FEED_REFRESH_TASK)).toBe(true);
    expect(feeds.requests('/early/esg')).toHaveLength(1);
    expect((await itemsOf('esg')).map((i) => i.title)).toEqual(['Story 2']);
    expect(await instance(after).runNow(FEED_REFRESH_TASK)).toBe(false);
  });

  it('the unique keys turn a concurrent save of the same items into no duplicates', async () => {
    await refresher([{ key: 'technology', url: feeds.url('/unused') }], { refreshMinutes: 15 })
      .refresh()
      .catch(() => undefined);
    const items = [1, 2, 3].map((n) => ({
      guid: `g${n}`,
      canonicalUrl: `https://news.example/${n}`,
      url: `https://news.example/${n}`,
      title: `T${n}`,
      imageUrl: null,
      publishedAt: new Date(),
      contentText: '',
      authors: [],
    }));
    const validators = { etag: null, lastModified: null, contentHash: 'x' };
    const saves = await Promise.allSettled(
      [1, 2, 3, 4].map(() => saveDocument(database.db, 'technology', items, validators, new Date())),
    );
    expect(saves.filter((s) => s.status === 'fulfilled').length).toBeGreaterThan(0);
    expect(await itemsOf('technology')).toHaveLength(3);
  });
});

describe('the schedule', () => {
  it('reads at start, then again once the interval has passed, and stops cleanly', async () => {
    feeds.set('/scheduled', { body: jsonFeed('S', [item(1)]) });
    let clock = new Date();
    const scheduler = createScheduler({ db: database.db, log, tickMs: 10, now: () => clock });
    refresher([{ key: 'technology', url: feeds.url('/scheduled') }], {
      refreshMinutes: 15,
      scheduler,
      now: () => clock,
    });
    scheduler.start();
    try {
      await feeds.waitForRequest('/scheduled');
      await scheduler.idle();
      // Not due yet: a tick reads nothing.
      expect(await scheduler.runNow(FEED_REFRESH_TASK)).toBe(false);
      expect(feeds.requests('/scheduled')).toHaveLength(1);
      // Due again once the interval has passed: the running scheduler's next tick reads it.
      clock = new Date(clock.getTime() + 15 * 60 * 1000);
      await feeds.waitForRequest('/scheduled', 2);
    } finally {
      await scheduler.stop();
    }
    expect(feeds.requests('/scheduled')).toHaveLength(2);
  });

  it('stops a read in flight when the instance stops, and records nothing against the feed', async () => {
    feeds.set('/slow', { hang: true });
    const scheduler = createScheduler({ db: database.db, log });
    refresher([{ key: 'technology', url: feeds.url('/slow') }], { scheduler });
    scheduler.start();
    await feeds.waitForRequest('/slow');
    await scheduler.stop();
    expect(await feedRow('technology')).toMatchObject({
      lastError: null,
      lastFailureAt: null,
      consecutiveFailures: 0,
    });
  });
});
