import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { FeedReader } from '../../integrations/feeds/feed-reader';
import type { FeedSource } from '../../integrations/feeds/feeds-file';
import { FeedParseError, parseFeedDocument } from '../../integrations/feeds/parse-feed';
import { describeUrl, FeedFetchError } from '../../integrations/feeds/safe-fetch';
import { shiftSampleDates } from '../../integrations/feeds/sample-feeds';
import {
  claimFeeds,
  purgeItemsBefore,
  recordFailure,
  recordUnchanged,
  releaseFeed,
  saveDocument,
  syncSources,
  type ClaimedFeed,
} from './feed-store';

/**
 * Reads the configured feeds into the database: at start, then every `refreshMinutes`.
 * Each instance ticks once a minute and claims the feeds that are due; a claimed feed is
 * leased, so with several instances on one database each feed is read by one of them.
 * A failing feed keeps its items; the failure and the last success are recorded.
 */

export type FeedRefresherOptions = {
  db: Db;
  sources: readonly FeedSource[];
  reader: FeedReader;
  refreshMinutes: number;
  retentionDays: number;
  log: FastifyBaseLogger;
  /** How often an instance looks for due feeds (default a minute). */
  tickMs?: number;
  /** Feeds read at the same time by one instance. */
  concurrency?: number;
  now?: () => Date;
};

export type RefreshOutcome =
  | { key: string; status: 'updated'; added: number; updated: number }
  | { key: string; status: 'unchanged' }
  | { key: string; status: 'failed'; error: string };

export type FeedRefresher = ReturnType<typeof createFeedRefresher>;

// Longer than the longest read (10 s deadline, parsing, storing) by a wide margin.
const LEASE_SECONDS = 120;
const DAY_MS = 24 * 60 * 60 * 1000;

export function createFeedRefresher(options: FeedRefresherOptions) {
  const { db, reader, log } = options;
  const now = options.now ?? (() => new Date());
  const owner = randomUUID();
  const keys = options.sources.map((s) => s.key);
  const concurrency = options.concurrency ?? 4;
  const stopping = new AbortController();
  let synced: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  const sync = () =>
    (synced ??= syncSources(db, options.sources).catch((err: unknown) => {
      synced = undefined;
      throw err;
    }));

  async function refreshOne(feed: ClaimedFeed): Promise<RefreshOutcome> {
    const at = now();
    try {
      const doc = await reader.read(
        feed.url,
        { etag: feed.etag, lastModified: feed.lastModified },
        stopping.signal,
      );
      if (doc.status === 'not-modified') {
        await recordUnchanged(db, feed.key, at);
        return { key: feed.key, status: 'unchanged' };
      }
      const contentHash = createHash('sha256').update(doc.text).digest('hex');
      // Samples are re-dated every day, so the same bytes do not mean the same items.
      if (!doc.sample && contentHash === feed.contentHash) {
        await recordUnchanged(db, feed.key, at);
        return { key: feed.key, status: 'unchanged' };
      }
      let items = parseFeedDocument(doc.text, { baseUrl: doc.baseUrl, localImages: doc.sample });
      if (doc.sample) items = shiftSampleDates(items, at);
      const cutoff = new Date(at.getTime() - options.retentionDays * DAY_MS);
      items = items.filter((item) => !item.publishedAt || item.publishedAt >= cutoff);
      const saved = await saveDocument(
        db,
        feed.key,
        items,
        { etag: doc.etag ?? null, lastModified: doc.lastModified ?? null, contentHash },
        at,
      );
      return { key: feed.key, status: 'updated', ...saved };
    } catch (err) {
      // The feed's own faults say what went wrong; anything else (a database error, whose message
      // carries query values) goes to the log through its serializer, not into the feed's row.
      const known = err instanceof FeedFetchError || err instanceof FeedParseError;
      const message = known ? err.message : 'GEM could not read or store this feed (see the server log)';
      // Cut short by a shutdown: not the feed's fault, nothing to record.
      if (stopping.signal.aborted) return { key: feed.key, status: 'failed', error: message };
      log.warn(
        { feed: feed.key, source: describeUrl(feed.url), reason: message, ...(known ? {} : { err }) },
        'feed refresh failed',
      );
      await recordFailure(db, feed.key, message, at).catch((dbErr: unknown) =>
        log.error({ err: dbErr, feed: feed.key }, 'could not record a feed failure'),
      );
      return { key: feed.key, status: 'failed', error: message };
    } finally {
      await releaseFeed(db, feed.key, owner).catch(() => undefined);
    }
  }

  /** Reads every due feed (every feed with `force`), then applies the retention period. */
  async function refresh({ force = false }: { force?: boolean } = {}): Promise<RefreshOutcome[]> {
    await sync();
    const claimed = await claimFeeds(db, {
      keys,
      owner,
      leaseSeconds: LEASE_SECONDS,
      // A little under the interval, so a tick a few seconds early still counts.
      dueAfterSeconds: Math.max(30, options.refreshMinutes * 60 - 30),
      force,
    });
    const outcomes: RefreshOutcome[] = [];
    const queue = [...claimed];
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let feed = queue.shift(); feed; feed = queue.shift()) {
          if (stopping.signal.aborted) {
            await releaseFeed(db, feed.key, owner).catch(() => undefined);
            continue;
          }
          outcomes.push(await refreshOne(feed));
        }
      }),
    );
    await purge();
    const failed = outcomes.filter((o) => o.status === 'failed').length;
    if (outcomes.length > 0) log.info({ feeds: outcomes.length, failed }, 'feeds refreshed');
    return outcomes;
  }

  async function purge(): Promise<number> {
    return purgeItemsBefore(db, new Date(now().getTime() - options.retentionDays * DAY_MS));
  }

  function tick() {
    running = running
      .then(() => refresh())
      .catch((err: unknown) => {
        if (!stopping.signal.aborted) log.error({ err }, 'feed refresh round failed');
      });
    return running;
  }

  return {
    refresh,
    purge,
    /** Starts reading: a first round now, then one per tick. */
    start() {
      if (timer || stopping.signal.aborted) return;
      void tick();
      timer = setInterval(() => void tick(), options.tickMs ?? 60_000);
      timer.unref();
    },
    /** Stops the timer, cancels reads in flight and waits for the round to wind down. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      stopping.abort();
      await running;
    },
  };
}
