import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type Metric,
  type MetricType,
  type MetricObjectWithValues,
  type MetricValueWithName,
  type RegistryContentType,
} from 'prom-client';

/**
 * GEM's Prometheus metrics: one registry per app (tests build many apps in one process), the
 * things that count into it, and the small HTTP server that serves it apart from GEM's port.
 * What each metric means is in README.md, "Metrics".
 */

/** Request latency buckets, in seconds: from a cached answer to a long AI stream. */
const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** AI call buckets, in seconds: a first token comes within a second or two, a whole answer in tens. */
const aiBuckets = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];
/** Rows in a page an export reads from the CRM: its page size is a few hundred. */
const pageRowBuckets = [10, 50, 100, 250, 500, 1000, 5000];

/** A route label for requests that matched no route (404s, probes of unknown paths). */
export const UNMATCHED_ROUTE = 'unmatched';

export type PoolStats = { total: number; idle: number; waiting: number; max: number };

/** What the database tells the metrics when they are scraped (db/client.ts Database). */
export type DatabaseStats = { kind: 'pglite' | 'postgres'; poolStats?: (() => PoolStats) | undefined };

export type FeedRefreshResult = 'updated' | 'unchanged' | 'failed';

/** How a CSV export of a CRM report ended: sent whole, the client left, GEM failed, or over the user's limit. */
export type CrmExportOutcome = 'completed' | 'aborted' | 'failed' | 'refused';

export type AiCallMetric = {
  tool: string;
  outcome: 'succeeded' | 'failed' | 'cancelled';
  /** The code of a failure (ai_timeout, client_closed…), or none. */
  errorCode: string | null;
  latencySeconds: number;
  promptTokens: number | null;
  completionTokens: number | null;
};

/** One series of a RequestHistogram: its labels, the count in each bucket (not cumulative), the sum. */
type Series = { labels: Record<string, string>; buckets: Float64Array; sum: number; count: number };

/**
 * A histogram for the one observation every request makes: it keeps each series' counts in an
 * array found by one string, and hands them to the registry in prom-client's own shape (a
 * Histogram's `get()`: cumulative `_bucket` values with `le`, then `+Inf`, `_sum` and `_count`),
 * so the scrape reads the same. prom-client's Histogram checks and hashes the labels of every
 * observation, 2–3 µs of a short API answer's CPU (bench/access-gate.md); every other metric
 * is prom-client's.
 */
export class RequestHistogram<L extends string> {
  readonly aggregator = 'sum' as const;
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly upperBounds: readonly number[],
  ) {}

  /**
   * Counts one observation into the series `key` names; `labels` (the label values in
   * labelNames' order) is called once, the first time the key is seen.
   */
  observe(key: string, labels: () => readonly string[], value: number): void {
    let series = this.#series.get(key);
    if (series === undefined) {
      const values = labels();
      series = {
        labels: Object.fromEntries(this.labelNames.map((name, i) => [name, values[i] ?? ''])),
        buckets: new Float64Array(this.upperBounds.length),
        sum: 0,
        count: 0,
      };
      this.#series.set(key, series);
    }
    const bounds = this.upperBounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i += 1;
    if (i < bounds.length) series.buckets[i]! += 1;
    series.sum += value;
    series.count += 1;
  }

  /** What the registry writes out: prom-client's Histogram shape. */
  async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const values: MetricValueWithName<string>[] = [];
    for (const { labels, buckets, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += buckets[i]!;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return {
      name: this.name,
      help: this.help,
      // prom-client's types declare MetricType as a numeric enum; at run time its metrics say 'histogram'.
      type: 'histogram' as unknown as MetricType,
      aggregator: this.aggregator,
      values,
      collect: () => {},
    };
  }

  reset(): void {
    this.#series.clear();
  }

  /** Puts it in a prom-client registry, which takes any metric with get() in this shape. */
  registerIn(registry: Registry<RegistryContentType>): void {
    registry.registerMetric(this as unknown as Metric);
  }
}

export type MetricsOptions = {
  /** Node's own process metrics (CPU, memory, event loop lag, GC): the server's, not every test app's. */
  processMetrics?: boolean;
};

export function createMetrics({ processMetrics = false }: MetricsOptions = {}) {
  const registry = new Registry();
  const registers = [registry];
  if (processMetrics) collectDefaultMetrics({ register: registry });

  const requestDuration = new RequestHistogram(
    'gem_http_request_duration_seconds',
    'HTTP requests by route pattern, method and status: latency until the answer was sent (its _count is the number of requests).',
    ['method', 'route', 'status'],
    requestBuckets,
  );
  requestDuration.registerIn(registry);

  const aiCalls = new Counter({
    name: 'gem_ai_calls_total',
    help: 'AI calls by tool and outcome (succeeded, failed, cancelled) and error code ("" when none).',
    labelNames: ['tool', 'outcome', 'code'] as const,
    registers,
  });
  const aiDuration = new Histogram({
    name: 'gem_ai_call_duration_seconds',
    help: 'AI calls by tool and outcome: time from taking the slot to recording the call.',
    labelNames: ['tool', 'outcome'] as const,
    buckets: aiBuckets,
    registers,
  });
  const aiFirstToken = new Histogram({
    name: 'gem_ai_first_token_seconds',
    help: 'Streamed AI calls by tool: time from taking the slot to the first text shown to the user.',
    labelNames: ['tool'] as const,
    buckets: aiBuckets,
    registers,
  });
  const aiTokens = new Counter({
    name: 'gem_ai_tokens_total',
    help: 'Tokens the AI service reported, by tool and kind (prompt, completion).',
    labelNames: ['tool', 'kind'] as const,
    registers,
  });
  const aiRefused = new Counter({
    name: 'gem_ai_calls_refused_total',
    help: "AI calls refused before reaching the model because the user's rate or concurrency limit was reached.",
    labelNames: ['tool'] as const,
    registers,
  });

  const crmExports = new Counter({
    name: 'gem_crm_exports_total',
    help: "CSV exports of CRM reports by outcome (completed, aborted: the client left, failed, refused: over the user's limit).",
    labelNames: ['outcome'] as const,
    registers,
  });
  const crmExportPages = new Histogram({
    name: 'gem_crm_export_page_rows',
    help: 'Pages of contacts CSV exports read from the CRM, by rows in the page: _count is pages, _sum rows.',
    buckets: pageRowBuckets,
    registers,
  });

  const feedRefreshes = new Counter({
    name: 'gem_feed_refresh_total',
    help: 'Feed reads by feed key and result (updated, unchanged, failed).',
    labelNames: ['feed', 'result'] as const,
    registers,
  });
  const feedLastSuccess = new Gauge({
    name: 'gem_feed_last_success_timestamp_seconds',
    help: 'When each feed was last read successfully by this instance (Unix time, seconds).',
    labelNames: ['feed'] as const,
    registers,
  });

  return {
    registry,

    /** One answered request; `route` is the route's pattern (never the raw URL), `ms` its latency. */
    request(method: string, route: string | undefined, status: number, ms: number): void {
      const path = route ?? UNMATCHED_ROUTE;
      requestDuration.observe(`${method} ${status} ${path}`, () => [method, path, String(status)], ms / 1000);
    },

    /** One AI call's end, as the AI platform records it. */
    aiCall(call: AiCallMetric): void {
      aiCalls.inc({ tool: call.tool, outcome: call.outcome, code: call.errorCode ?? '' });
      aiDuration.observe({ tool: call.tool, outcome: call.outcome }, call.latencySeconds);
      if (call.promptTokens) aiTokens.inc({ tool: call.tool, kind: 'prompt' }, call.promptTokens);
      if (call.completionTokens) aiTokens.inc({ tool: call.tool, kind: 'completion' }, call.completionTokens);
    },

    /** The first text of a streamed AI call reached the user, `seconds` after the call began. */
    aiFirstToken(tool: string, seconds: number): void {
      aiFirstToken.observe({ tool }, seconds);
    },

    /** An AI call refused by the user's limits (429). */
    aiRefused(tool: string): void {
      aiRefused.inc({ tool });
    },

    /** A CSV export of a CRM report ended (or was refused). */
    crmExport(outcome: CrmExportOutcome): void {
      crmExports.inc({ outcome });
    },

    /** A CSV export read a page of `rows` contacts from the CRM. */
    crmExportPage(rows: number): void {
      crmExportPages.observe(rows);
    },

    /** One feed read in a refresh round. */
    feedRefresh(feed: string, result: FeedRefreshResult, at: Date): void {
      feedRefreshes.inc({ feed, result });
      if (result !== 'failed') feedLastSuccess.set({ feed }, at.getTime() / 1000);
    },

    /** Reports the database's connections on every scrape. Call once, with the app's database. */
    watchDatabase(database: DatabaseStats): void {
      new Gauge({
        name: 'gem_db_info',
        help: 'The database GEM uses: kind is pglite (embedded, one connection) or postgres (a pool).',
        labelNames: ['kind'] as const,
        registers,
      }).set({ kind: database.kind }, 1);
      const { poolStats } = database;
      if (!poolStats) return;
      const poolGauge = (name: string, help: string, read: (s: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(poolStats()));
          },
        });
      poolGauge(
        'gem_db_pool_connections',
        'Connections the pool holds open (busy and idle).',
        (s) => s.total,
      );
      poolGauge('gem_db_pool_idle_connections', 'Open connections no query is using.', (s) => s.idle);
      poolGauge(
        'gem_db_pool_waiting_requests',
        'Queries waiting for a connection because every one is busy (the pool is at its maximum).',
        (s) => s.waiting,
      );
      poolGauge(
        'gem_db_pool_max_connections',
        'The most connections the pool opens (GEM_DB_POOL_MAX).',
        (s) => s.max,
      );
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export type MetricsServer = {
  /** Where it listens (the port chosen, when 0 was asked for). */
  address: AddressInfo;
  close(): Promise<void>;
};

/**
 * Serves the registry at GET /metrics on its own host and port (GEM_METRICS_HOST, 127.0.0.1 by
 * default, and GEM_METRICS_PORT): a plain node:http server, outside the app, its routes, its
 * sign-in and its proxy. Anything else is a 404. Rejects when the port cannot be taken.
 */
export async function serveMetrics(
  metrics: Pick<Metrics, 'registry'>,
  { host, port }: { host: string; port: number },
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics failed\n');
      },
    );
  });
  // A scraper that keeps its connection open must not hold up the shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
