import { repeatedJsonFeed, startFeedServer, type FeedServer } from '@gem/test-servers/feed-server';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import { charactersReadWhile } from '../../../test/text-work';
import type { Database } from '../../db/client';
import { marketFeedItems, marketFeeds } from '../../db/schema/market-research';
import { createFeedReader, FEED_MAX_BYTES } from '../../integrations/feeds/feed-reader';
import { createFeedRefresher } from './feed-refresher';

/**
 * Feed documents are third-party input up to the 5 MiB cap. Reading one, however it is made,
 * must not hold up the server: the document is parsed on the parser's worker thread, never on
 * the server's. Counted, not timed (test/text-work.ts): while a refresh reads a hostile document,
 * the server's thread reads a small part of what the document holds, where parsing it there
 * would read all of it several times. How long /api/health waits during such a refresh, against
 * an idle server, is measured in bench/hostile-text.mjs (before the worker, a 200 KB document
 * held every request for 8.7 s, and one at the cap for hours).
 */

const log = pino({ level: 'silent' });
const { samplesDir } = testConfig().feeds;
let feeds: FeedServer;
let database: Database;

beforeAll(async () => {
  feeds = await startFeedServer();
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  await feeds?.close();
});

const reader = createFeedReader({ samplesDir, allowPrivateHosts: true });
const feedRow = async (key: string) =>
  (await database.db.select().from(marketFeeds).where(eq(marketFeeds.key, key)))[0]!;

describe('a refresh of a hostile feed', () => {
  it.each([
    ['a content_text of "<a" repeated', 'content_text', '<a', 'technology'],
    ['a content_html of "<img" repeated', 'content_html', '<img', 'pharma'],
  ] as const)(
    "of %s up to the 5 MiB cap is read off the server's thread",
    async (_what, field, unit, key) => {
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

      const { result, characters } = await charactersReadWhile(() => refresher.refresh());

      // Parsed (or refused): either way the read is over and recorded.
      expect(result).toEqual([{ key, status: 'updated', added: 1, updated: 0 }]);
      const [item] = await database.db.select().from(marketFeedItems).where(eq(marketFeedItems.feedKey, key));
      expect(item).toMatchObject({ title: 'Repeated item' });
      expect(item!.contentText.length).toBeLessThanOrEqual(600);
      // The fetch, the worker's answer and the stored item; parsing here would read it all.
      expect(characters).toBeLessThan(body.length / 10);
    },
  );

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
    const { result, characters } = await charactersReadWhile(() =>
      createFeedRefresher({ ...options, reader: impatient }).refresh(),
    );
    expect(result).toEqual([
      { key: 'esg', status: 'failed', error: 'the document took too long to parse (more than 0.001 s)' },
    ]);
    expect(characters).toBeLessThan(FEED_MAX_BYTES / 10);
    expect(await feedRow('esg')).toMatchObject({
      lastError: 'the document took too long to parse (more than 0.001 s)',
      consecutiveFailures: 1,
    });
    const kept = await database.db.select().from(marketFeedItems).where(eq(marketFeedItems.feedKey, 'esg'));
    expect(kept.map((i) => i.contentText)).toEqual([expect.stringMatching(/^x x x/)]);
  });
});
