import type {
  AiHealth,
  CompetitorHealth,
  FeedHealth,
  IntegrationSetting,
  IntegrationsResponse,
} from '@gem/contracts/admin-integrations';
import { desc, gte, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import { competitorCrawls, competitorPages } from '../../db/schema/competitor-search';
import { generations } from '../../db/schema/generations';
import { marketFeedItems, marketFeeds } from '../../db/schema/market-research';
import { isSampleUrl } from '../../integrations/feeds/feeds-file';
import { CrmError } from '../../integrations/crm/crm';
import type { AdminDeps } from './admin.deps';

/**
 * The integrations' health (issue 30): what GEM's own records say about each service it depends
 * on, and one small call to the CRM, with the settings that choose each. Settings are named here,
 * for administrators; the marketers' pages never name them.
 */

const HOUR_MS = 60 * 60 * 1000;
/** A CRM check is reused this long, so a page reloaded again and again does not hammer the CRM. */
export const CRM_CHECK_TTL_MS = 30_000;
/** The Salesforce check's deadline (or GEM_CRM_TIMEOUT_MS when shorter): slower counts as unreachable. */
export const CRM_CHECK_TIMEOUT_MS = 5_000;

const setting = (name: string, value: string | number | boolean | null | undefined): IntegrationSetting => ({
  name,
  value: value === null || value === undefined ? null : String(value),
});
const secret = (name: string, value: string | null | undefined) => setting(name, value ? 'set' : null);

/** The AI service's settings as they are in effect (its key only as set or not). */
function aiSettings(config: Config): IntegrationSetting[] {
  const service = config.ai.service;
  const settings = [setting('GEM_AI_PROVIDER', service?.provider), setting('GEM_AI_MODEL', service?.model)];
  if (service?.provider === 'azure') {
    settings.push(
      setting('GEM_AI_AZURE_RESOURCE', service.resourceName),
      setting('GEM_AI_AZURE_DEPLOYMENT', service.deployment),
      setting('GEM_AI_AZURE_API_VERSION', service.apiVersion),
      setting('GEM_AI_BASE_URL', service.baseUrl),
      secret('GEM_AI_API_KEY', service.apiKey),
    );
  } else if (service && service.provider !== 'demo') {
    settings.push(setting('GEM_AI_BASE_URL', service.baseUrl), secret('GEM_AI_API_KEY', service.apiKey));
  }
  settings.push(
    setting('GEM_AI_TIMEOUT_MS', config.ai.timeoutMs),
    setting('GEM_AI_RATE_LIMIT_PER_MINUTE', config.ai.limits.perMinute),
    setting('GEM_AI_MAX_CONCURRENT_PER_USER', config.ai.limits.concurrent),
    setting('GEM_AI_CONTEXT_TOKENS', config.ai.contextTokens),
  );
  return settings;
}

function crmSettings(config: Config): IntegrationSetting[] {
  const sf = config.crm.salesforce;
  const settings = [
    setting('GEM_CRM_PROVIDER', config.crm.provider),
    setting('GEM_CRM_TIMEOUT_MS', config.crm.timeoutMs),
  ];
  if (sf) {
    settings.push(
      setting('GEM_SALESFORCE_LOGIN_URL', sf.loginUrl),
      setting('GEM_SALESFORCE_CLIENT_ID', sf.clientId),
      setting('GEM_SALESFORCE_API_VERSION', sf.apiVersion),
      setting('GEM_SALESFORCE_AUTH', sf.auth.flow),
      sf.auth.flow === 'jwt'
        ? setting('GEM_SALESFORCE_USERNAME', sf.auth.username)
        : secret('GEM_SALESFORCE_CLIENT_SECRET', sf.auth.clientSecret),
    );
  }
  return settings;
}

type CrmCheck = Pick<IntegrationsResponse['crm'], 'reachable' | 'checkedAt' | 'latencyMs' | 'error'>;

export function createAdminIntegrations({ db, config, ai, adapters, log, now = Date.now }: AdminDeps) {
  let crmCheck: { at: number; result: Promise<CrmCheck> } | null = null;

  /** One small CRM call (the most recent campaign), with a short deadline; reused for 30 s. */
  function checkCrm(): Promise<CrmCheck> {
    const at = now();
    // The embedded demo CRM is tables in GEM's own database, which answers this very page: no
    // call (its first one fills the demo tables, which takes a while and proves nothing here).
    if (adapters.crm.provider === 'embedded') {
      return Promise.resolve({
        reachable: true,
        checkedAt: new Date(at).toISOString(),
        latencyMs: 0,
        error: null,
      });
    }
    if (crmCheck && at - crmCheck.at < CRM_CHECK_TTL_MS) return crmCheck.result;
    const result = (async (): Promise<CrmCheck> => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const limitMs = Math.min(CRM_CHECK_TIMEOUT_MS, config.crm.timeoutMs);
      const deadline = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new CrmTimeout(`The CRM did not answer within ${limitMs / 1000} seconds.`)),
          limitMs,
        );
      });
      try {
        await Promise.race([adapters.crm.listCampaigns('', 1), deadline]);
        return {
          reachable: true,
          checkedAt: new Date(at).toISOString(),
          latencyMs: elapsed(started),
          error: null,
        };
      } catch (err) {
        log.warn({ err, crm: adapters.crm.provider }, 'the CRM health check failed');
        return {
          reachable: false,
          checkedAt: new Date(at).toISOString(),
          latencyMs: elapsed(started),
          error: crmErrorText(err),
        };
      } finally {
        clearTimeout(timer);
      }
    })();
    crmCheck = { at, result };
    return result;
  }

  async function aiHealth(): Promise<AiHealth> {
    const status = ai.status();
    const since = new Date(now() - HOUR_MS);
    const [[last], [hour]] = await Promise.all([
      db
        .select({ at: generations.createdAt, outcome: generations.outcome, errorCode: generations.errorCode })
        .from(generations)
        .orderBy(desc(generations.createdAt))
        .limit(1),
      db
        .select({
          calls: sql<number>`count(*)::int`,
          failures: sql<number>`(count(*) filter (where ${generations.outcome} = 'failed'))::int`,
        })
        .from(generations)
        .where(gte(generations.createdAt, since)),
    ]);
    const calls = Number(hour?.calls ?? 0);
    const failures = Number(hour?.failures ?? 0);
    return {
      configured: status.configured,
      provider: status.provider,
      model: status.model,
      demo: status.demo ?? false,
      lastCall: last ? { at: last.at.toISOString(), outcome: last.outcome, errorCode: last.errorCode } : null,
      lastHour: { calls, failures, errorRate: calls === 0 ? null : failures / calls },
      settings: aiSettings(config),
    };
  }

  async function feedsHealth(): Promise<FeedHealth[]> {
    const [rows, counts] = await Promise.all([
      db.select().from(marketFeeds),
      db
        .select({ key: marketFeedItems.feedKey, items: sql<number>`count(*)::int` })
        .from(marketFeedItems)
        .groupBy(marketFeedItems.feedKey),
    ]);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const itemsByKey = new Map(counts.map((c) => [c.key, Number(c.items)]));
    return config.feeds.sources.map((source) => {
      // A row read from another URL is an older feed of the key: nothing of it is this feed's.
      const row = byKey.get(source.key);
      const own = row && row.url === source.url ? row : undefined;
      return {
        key: source.key,
        url: source.url,
        sample: isSampleUrl(source.url),
        lastGoodReadAt: own?.lastSuccessAt?.toISOString() ?? null,
        lastAttemptAt: own?.lastAttemptAt?.toISOString() ?? null,
        lastFailureAt: own?.lastFailureAt?.toISOString() ?? null,
        failingSince: own?.failingSince?.toISOString() ?? null,
        lastError: own?.lastError ?? null,
        consecutiveFailures: own?.consecutiveFailures ?? 0,
        items: itemsByKey.get(source.key) ?? 0,
      };
    });
  }

  async function competitorsHealth(): Promise<CompetitorHealth[]> {
    const [crawls, counts] = await Promise.all([
      db.select().from(competitorCrawls),
      db
        .select({
          key: competitorPages.competitorKey,
          pages: sql<number>`count(*)::int`,
          samples: sql<number>`(count(*) filter (where ${competitorPages.sample}))::int`,
        })
        .from(competitorPages)
        .groupBy(competitorPages.competitorKey),
    ]);
    const crawlOf = new Map(crawls.map((c) => [c.competitorKey, c]));
    const countOf = new Map(counts.map((c) => [c.key, c]));
    return config.competitors.list.map((competitor) => {
      const crawl = crawlOf.get(competitor.key);
      const count = countOf.get(competitor.key);
      return {
        key: competitor.key,
        name: competitor.name,
        site: competitor.site,
        lastCrawlStartedAt: crawl?.lastStartedAt?.toISOString() ?? null,
        lastCrawlFinishedAt: crawl?.lastFinishedAt?.toISOString() ?? null,
        pagesLastCrawl: crawl?.pagesLastRound ?? 0,
        pages: Number(count?.pages ?? 0),
        samplePages: Number(count?.samples ?? 0),
        lastError: crawl?.lastError ?? null,
      };
    });
  }

  async function health(): Promise<IntegrationsResponse> {
    const [aiPart, feeds, competitors, crm] = await Promise.all([
      aiHealth(),
      feedsHealth(),
      competitorsHealth(),
      checkCrm(),
    ]);
    const { metrics } = config;
    return {
      checkedAt: new Date(now()).toISOString(),
      ai: aiPart,
      feeds: {
        refreshMinutes: config.feeds.refreshMinutes,
        list: feeds,
        settings: [
          setting('GEM_FEEDS_FILE', config.feeds.file),
          setting('GEM_FEEDS_REFRESH_MINUTES', config.feeds.refreshMinutes),
          setting('GEM_FEEDS_RETENTION_DAYS', config.feeds.retentionDays),
          setting('GEM_FEEDS_ALLOW_PRIVATE_HOSTS', config.feeds.allowPrivateHosts),
        ],
      },
      competitors: {
        crawl: config.competitors.crawl,
        crawlMinutes: config.competitors.crawlMinutes,
        searchProvider: config.search.provider,
        list: competitors,
        settings: [
          setting('GEM_COMPETITORS_FILE', config.competitors.file),
          setting('GEM_COMPETITORS_CRAWL', config.competitors.crawl),
          setting('GEM_COMPETITORS_CRAWL_MINUTES', config.competitors.crawlMinutes),
          setting('GEM_COMPETITORS_MAX_PAGES_PER_ROUND', config.competitors.maxPagesPerRound),
          setting('GEM_SEARCH_PROVIDER', config.search.provider),
          secret('GEM_BRAVE_API_KEY', config.search.brave?.apiKey),
        ],
      },
      crm: { provider: adapters.crm.provider, ...crm, settings: crmSettings(config) },
      metrics: {
        address: metrics ? `${metrics.host}:${metrics.port}` : null,
        settings: [
          setting('GEM_METRICS_PORT', metrics ? metrics.port : 'off'),
          setting('GEM_METRICS_HOST', metrics?.host),
        ],
      },
    };
  }

  return { health };
}

/** Why the CRM check failed, for an administrator: the kind of failure, never upstream words. */
function crmErrorText(err: unknown): string {
  if (err instanceof CrmTimeout) return err.message;
  if (err instanceof CrmError) {
    const words: Record<CrmError['failure'], string> = {
      unavailable: 'The CRM did not answer.',
      timeout: 'The CRM did not answer in time.',
      auth: 'The CRM refused GEM’s credentials: check the Salesforce settings below.',
      rejected: 'The CRM refused the request: check the Salesforce settings and the mapping file.',
    };
    return words[err.failure];
  }
  return 'The check failed unexpectedly; the server log says why.';
}

class CrmTimeout extends Error {}

const elapsed = (started: number) => Math.round(performance.now() - started);

export type AdminIntegrations = ReturnType<typeof createAdminIntegrations>;
