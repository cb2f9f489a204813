import { repeatedJsonFeed, startFeedServer, type FeedServer } from '@gem/test-servers/feed-server';
import { eq } from 'drizzle-orm';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import type { Database } from '../../db/client';
import { marketFeedItems, marketFeeds } from '../../db/schema/market-research';
import { createFeedReader, FEED_MAX_BYTES } from '../../integrations/feeds/feed-reader';
import { createFeedRefresher } from './feed-refresher';

/**
 * Feed documents are third-party input up to the 5 MiB cap. Reading one, however it is made,
 * must not hold up the server: a refresh runs while /api/health keeps answering.
 */

// The issue asks for answers within 100 ms, and no more than a second of blocking per document.
// The margin is for a loaded 2-core machine, where the test's own feed host (in this process)
// and the 5 MiB transfer cost the event loop some time too. Before the fix, a 200 KB document
// held every request for 8.7 s, and one at the cap for hours.
const HEALTH_MAX_MS = 1000;
const BLOCKED_MAX_MS = 1000;

const log = pino({ level: 'silent' });
const { samplesDir } = testConfig().feeds;
let feeds: FeedServer;
let database: Database;
let app: App;
let origin: string;

beforeAll(async () => {
  feeds = await startFeedServer();
  database = await createTestDatabase();
  const base = testConfig();
  // The server only answers /api/health here: no feeds of its own to read when it listens.
  app = await buildTestApp({ config: testConfig({ feeds: { ...base.feeds, sources: [] } }), database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no port');
  origin = `http://127.0.0.1:${address.port}`;
  // Started before anything is measured: the feed parser's worker thread and the code that reads
  // a document over HTTP. The first case then measures its hostile document, not their first
  // start (which, on a loaded machine, put its slowest /api/health answer past the bound).
  feeds.set('/warm-up', {
    body: repeatedJsonFeed('content_text', 'x ', 10_000),
    contentType: 'application/feed+json',
  });
  const warm = await reader.read(feeds.url('/warm-up'), { etag: null, lastModified: null });
  if (warm.status !== 'ok') throw new Error('the warm-up feed was not read');
  expect(await reader.parse(warm)).toHaveLength(1);
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  await feeds?.close();
});

const reader = createFeedReader({ samplesDir, allowPrivateHosts: true });
const feedRow = async (key: string) =>
  (await database.db.select().from(marketFeeds).where(eq(marketFeeds.key, key)))[0]!;

/** Runs `work` while asking /api/health one request after another; the slowest answer and the longest event-loop delay. */
async function whileServing<T>(work: () => Promise<T>) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let done = false;
  const working = work().finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  do {
    const started = performance.now();
    const res = await fetch(`${origin}/api/health`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
  } while (!done);
  const result = await working;
  delay.disable();
  return { result, slowestHealthMs: Math.max(...latencies), blockedMs: delay.max / 1e6 };
}

describe('a refresh of a hostile feed', () => {
  it.each([
    ['a content_text of "<a" repeated', 'content_text', '<a', 'technology'],
    ['a content_html of "<img" repeated', 'content_html', '<img', 'pharma'],
  ] as const)('of %s up to the 5 MiB cap keeps /api/health answering', async (_what, field, unit, key) => {
    const path = `/hostile/${field}`;
    const body = repeatedJsonFeed(field, unit, FEED_MAX_BYTES);
    expect(body.length).toBeGreaterThan(FEED_MAX_BYTES - 100);
    feeds.set(path, { body, contentType: 'application/feed+json' });
    const refresher = createFeedRefresher({
      db: database.db,
      sources: [{ key, url: feeds.url(path) }],
      reader,
      refreshMinutes: 15,
      retentionDays: 90,
      log,
    });

    const { result, slowestHealthMs, blockedMs } = await whileServing(() => refresher.refresh());

    // Parsed (or refused): either way the read is over and recorded.
    expect(result).toEqual([{ key, status: 'updated', added: 1, updated: 0 }]);
    const [item] = await database.db.select().from(marketFeedItems).where(eq(marketFeedItems.feedKey, key));
    expect(item).toMatchObject({ title: 'Repeated item' });
    expect(item!.contentText.length).toBeLessThanOrEqual(600);
    expect(slowestHealthMs).toBeLessThan(HEALTH_MAX_MS);
    expect(blockedMs).toBeLessThan(BLOCKED_MAX_MS);
  });

  it('records a document that takes longer than the parse budget as a failed read, and keeps the last good items', async () => {
    const path = '/hostile/slow';
    feeds.set(path, {
      body: repeatedJsonFeed('content_html', '<p>x</p>', 200_000),
      contentType: 'application/feed+json',
    });
    const source = { key: 'esg', url: feeds.url(path) };
    const options = { db: database.db, sources: [source], refreshMinutes: 15, retentionDays: 90, log };
    expect((await createFeedRefresher({ ...options, reader }).refresh())[0]!.status).toBe('updated');

    feeds.set(path, {
      body: repeatedJsonFeed('content_html', '<p>y</p>', FEED_MAX_BYTES),
      contentType: 'application/feed+json',
    });
    const impatient = createFeedReader({ samplesDir, allowPrivateHosts: true, parseBudgetMs: 1 });
    const { result, slowestHealthMs } = await whileServing(() =>
      createFeedRefresher({ ...options, reader: impatient }).refresh(),
    );
    expect(result).toEqual([
      { key: 'esg', status: 'failed', error: 'the document took too long to parse (more than 0.001 s)' },
    ]);
    expect(slowestHealthMs).toBeLessThan(HEALTH_MAX_MS);
    expect(await feedRow('esg')).toMatchObject({
      lastError: 'the document took too long to parse (more than 0.001 s)',
      consecutiveFailures: 1,
    });
    const kept = await database.db.select().from(marketFeedItems).where(eq(marketFeedItems.feedKey, 'esg'));
    expect(kept.map((i) => i.contentText)).toEqual([expect.stringMatching(/^x x x/)]);
  });
});
