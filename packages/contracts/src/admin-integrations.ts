import { z } from 'zod';

export { adminPaths } from './admin-paths';

/**
 * The integrations' health (issue 30, GET /api/admin/integrations): the AI service, every feed,
 * every competitor, the CRM and the metrics address, each with the settings that choose it. This
 * is the one page that names settings (GEM_*); marketers' pages say what a sample means and
 * whom to ask instead.
 */

/** A setting beside the block it chooses: its name and what it is set to (never a secret's value). */
export const integrationSettingSchema = z.object({
  name: z.string(),
  /** The value in effect, 'set' for a secret, or null when unset (the default applies). */
  value: z.string().nullable(),
});
export type IntegrationSetting = z.infer<typeof integrationSettingSchema>;

const isoTime = z.string().nullable();

export const aiHealthSchema = z.object({
  configured: z.boolean(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  /** The built-in stand-in answers: its answers are examples. */
  demo: z.boolean(),
  /** The newest recorded call of any tool. */
  lastCall: z
    .object({
      at: z.string(),
      outcome: z.enum(['succeeded', 'failed', 'cancelled']),
      errorCode: z.string().nullable(),
    })
    .nullable(),
  /** The calls of the last hour: failures are the ones that failed (cancelled ones are not). */
  lastHour: z.object({
    calls: z.number().int(),
    failures: z.number().int(),
    /** failures / calls, 0 to 1; null without calls. */
    errorRate: z.number().nullable(),
  }),
  settings: z.array(integrationSettingSchema),
});
export type AiHealth = z.infer<typeof aiHealthSchema>;

export const feedHealthSchema = z.object({
  /** The feeds file's key: an area or area/sub-area. */
  key: z.string(),
  url: z.string(),
  /** GEM's bundled, fictional sample feed. */
  sample: z.boolean(),
  lastGoodReadAt: isoTime,
  lastAttemptAt: isoTime,
  lastFailureAt: isoTime,
  /** The first failure of the current run of failures; null once a read succeeds. */
  failingSince: isoTime,
  /** Why the last read failed, for operators. */
  lastError: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  /** Items stored for the feed. */
  items: z.number().int(),
});
export type FeedHealth = z.infer<typeof feedHealthSchema>;

export const competitorHealthSchema = z.object({
  key: z.string(),
  name: z.string(),
  site: z.string(),
  lastCrawlStartedAt: isoTime,
  lastCrawlFinishedAt: isoTime,
  /** Pages fetched and stored in the last crawl. */
  pagesLastCrawl: z.number().int(),
  /** Pages of the competitor in GEM's index, sample ones included. */
  pages: z.number().int(),
  /** Of them, from the bundled fictional sample corpus. */
  samplePages: z.number().int(),
  lastError: z.string().nullable(),
});
export type CompetitorHealth = z.infer<typeof competitorHealthSchema>;

export const integrationsResponseSchema = z.object({
  /** When this answer was put together (ISO 8601). */
  checkedAt: z.string(),
  ai: aiHealthSchema,
  feeds: z.object({
    refreshMinutes: z.number().int(),
    list: z.array(feedHealthSchema),
    settings: z.array(integrationSettingSchema),
  }),
  competitors: z.object({
    /** Whether GEM crawls the competitors' sites (otherwise the sample corpus stands in). */
    crawl: z.boolean(),
    crawlMinutes: z.number().int(),
    /** Where searches go: GEM's own index or the Brave Search API. */
    searchProvider: z.enum(['index', 'brave']),
    list: z.array(competitorHealthSchema),
    settings: z.array(integrationSettingSchema),
  }),
  crm: z.object({
    /** 'embedded' (GEM's demo CRM) or 'salesforce'. */
    provider: z.string(),
    /** Whether a small call through the CRM answered in time; checked at most every 30 s. */
    reachable: z.boolean(),
    /** When that call was made. */
    checkedAt: z.string(),
    /** How long it took, in milliseconds. */
    latencyMs: z.number().int(),
    /** Why it failed, for operators; null when it answered. */
    error: z.string().nullable(),
    settings: z.array(integrationSettingSchema),
  }),
  metrics: z.object({
    /** Where Prometheus reads GEM's metrics (host:port), apart from GEM's own port; null: off. */
    address: z.string().nullable(),
    settings: z.array(integrationSettingSchema),
  }),
});
export type IntegrationsResponse = z.infer<typeof integrationsResponseSchema>;
