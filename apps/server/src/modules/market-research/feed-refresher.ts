import { webcrypto } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { FeedReader } from '../../integrations/feeds/feed-reader';
import type { FeedSource } from '../../integrations/feeds/feeds-file';
import { FeedParseError } from '../../integrations/feeds/parsed-feed';
import { shiftSampleDates } from '../../integrations/feeds/sample-feeds';
import { describeUrl, HttpFetchError } from '../../integrations/http/safe-fetch';
import type { Metrics } from '../../lib/metrics';
import type { Scheduler } from '../../lib/scheduler';
import {
  hasUnreadFeeds,
  purgeDroppedItems,
  recordFailure,
  recordUnchanged,
  saveDocument,
  startRound,
  syncSources,
  type RoundFeed,
} from './feed-store';

/**
 * Reads the configured feeds into the database. The round is a scheduler task: it runs when
 * an instance starts (if it is due), then every `refreshMinutes`, once across all instances on
 * the database; a feed added to the feeds file (or given a new URL) is read at the next tick,
 * without waiting for the interval. A failing feed keeps its items; the failure and the last
 * success are recorded. Every item a feed lists is kept, however old; one the feed no longer
 * lists is deleted `retentionDays` after GEM first read a document without it.
 */

export type FeedRefresherOptions = {
  db: Db;
  sources: readonly FeedSource[];
  reader: FeedReader;
  refreshMinutes: number;
  retentionDays: number;
  log: FastifyBaseLogger;
  /** Runs the round on schedule. Without it, nothing runs until refresh() is called. */
  scheduler?: Scheduler;
  /** Counts each feed's result (gem_feed_refresh_total, gem_feed_last_success_timestamp_seconds). */
  metrics?: Pick<Metrics, 'feedRefresh'> | undefined;
  /** Feeds read at the same time. */
  concurrency?: number;
  now?: () => Date;
};

export type RefreshOutcome =
  | { key: string; status: 'updated'; added: number; updated: number }
  | { key: string; status: 'unchanged' }
  | { key: string; status: 'failed'; error: string };

export type FeedRefresher = ReturnType<typeof createFeedRefresher>;

/** The round's name in scheduled_tasks. */
export const FEED_REFRESH_TASK = 'market-research.feed-refresh';
// Renewed while the round runs; a dead instance's round is taken over this long after its last renewal.
const LEASE_MS = 2 * 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const NEVER = new AbortController().signal;

export function createFeedRefresher(options: FeedRefresherOptions) {
  const { db, reader, log } = options;
  const now = options.now ?? (() => new Date());
  const keys = options.sources.map((s) => s.key);
  const concurrency = options.concurrency ?? 4;
  let synced: Promise<void> | undefined;

  const sync = () =>
    (synced ??= syncSources(db, options.sources).catch((err: unknown) => {
      synced = undefined;
      throw err;
    }));

  async function refreshOne(feed: RoundFeed, signal: AbortSignal): Promise<RefreshOutcome> {
    const at = now();
    try {
      const doc = await reader.read(feed.url, { etag: feed.etag, lastModified: feed.lastModified }, signal);
      if (doc.status === 'not-modified') {
        await recordUnchanged(db, feed.key, at);
        return { key: feed.key, status: 'unchanged' };
      }
      // Off the event loop, like the parse: a document is up to 5 MiB.
      const contentHash = Buffer.from(await webcrypto.subtle.digest('SHA-256', doc.body)).toString('hex');
      // Samples are re-dated every day, so the same bytes do not mean the same items.
      if (!doc.sample && contentHash === feed.contentHash) {
        await recordUnchanged(db, feed.key, at);
        return { key: feed.key, status: 'unchanged' };
      }
      // On the reader's worker thread, within its time budget: a large or hostile document
      // does not hold up the server.
      let items = await reader.parse(doc, signal);
      if (doc.sample) items = shiftSampleDates(items, at);
      // Every item the document lists is stored, whatever its date: a slow feed (a quarterly
      // series, a press room) shows what it carries. Retention applies once an item leaves it.
      const saved = await saveDocument(
        db,
        feed.key,
        items,
        { etag: doc.etag ?? null, lastModified: doc.lastModified ?? null, contentHash },
        at,
        { redated: doc.sample },
      );
      return { key: feed.key, status: 'updated', ...saved };
    } catch (err) {
      // The feed's own faults say what went wrong; anything else (a database error, whose message
      // carries query values) goes to the log through its serializer, not into the feed's row.
      const known = err instanceof HttpFetchError || err instanceof FeedParseError;
      const message = known ? err.message : 'GEM could not read or store this feed (see the server log)';
      // Cut short by a shutdown: not the feed's fault, nothing to record.
      if (signal.aborted) return { key: feed.key, status: 'failed', error: message };
      log.warn(
        { feed: feed.key, source: describeUrl(feed.url), reason: message, ...(known ? {} : { err }) },
        'feed refresh failed',
      );
      await recordFailure(db, feed.key, message, at).catch((dbErr: unknown) =>
        log.error({ err: dbErr, feed: feed.key }, 'could not record a feed failure'),
      );
      return { key: feed.key, status: 'failed', error: message };
    }
  }

  /**
   * One round: reads every configured feed now, then applies the retention period. The
   * scheduler makes it run on one instance at a time; `signal` cuts it short (a shutdown).
   */
  async function refresh({ signal = NEVER }: { signal?: AbortSignal } = {}): Promise<RefreshOutcome[]> {
    await sync();
    const queue = await startRound(db, keys, now());
    const outcomes: RefreshOutcome[] = [];
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let feed = queue.shift(); feed && !signal.aborted; feed = queue.shift()) {
          const outcome = await refreshOne(feed, signal);
          outcomes.push(outcome);
          // Cut short by a shutdown: not a result of the feed's.
          if (!signal.aborted) options.metrics?.feedRefresh(outcome.key, outcome.status, now());
        }
      }),
    );
    await purge();
    const failed = outcomes.filter((o) => o.status === 'failed').length;
    if (outcomes.length > 0) log.info({ feeds: outcomes.length, failed }, 'feeds refreshed');
    return outcomes;
  }

  /**
   * Applies the retention period (feed-store purgeDroppedItems): deletes the items that left
   * their feed's document more than `retentionDays` ago. Items a feed still lists stay,
   * whatever their date, also while the feed fails or answers "not modified".
   */
  async function purge(): Promise<number> {
    return purgeDroppedItems(db, keys, new Date(now().getTime() - options.retentionDays * DAY_MS));
  }

  options.scheduler?.every({
    name: FEED_REFRESH_TASK,
    intervalMs: options.refreshMinutes * 60_000,
    leaseMs: LEASE_MS,
    // A feed new to the feeds file (or with a new URL) is read without waiting for the interval.
    dueEarly: async () => {
      await sync();
      return hasUnreadFeeds(db, keys);
    },
    run: async (signal) => {
      await refresh({ signal });
    },
  });

  return { refresh, purge };
}
