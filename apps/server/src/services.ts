import type { FastifyBaseLogger } from 'fastify';
import packageJson from '../package.json' with { type: 'json' };
import type { AppAdapters } from './adapters';
import type { Config } from './config';
import type { Database } from './db/client';
import { createAiPlatform } from './lib/ai/ai-platform';
import { createBrandVoice } from './lib/brand-voice/brand-voice';
import { createInflection } from './lib/brand-voice/inflection';
import type { Metrics } from './lib/metrics';
import { createScheduler } from './lib/scheduler';
import { createWritingTools } from './modules/writing-tools/writing-tools.service';
import { createAdmin } from './modules/admin/admin.service';
import { createBriefCreator } from './modules/brief-creator/brief-creator.service';
import { createCampaignAssets } from './modules/campaigns/campaign-assets.service';
import { createCampaignPack } from './modules/campaigns/campaign-pack.service';
import { createCampaignAudience } from './modules/campaigns/campaign-audience.service';
import { createCampaignSources } from './modules/campaigns/campaign-sources.service';
import { createCampaigns } from './modules/campaigns/campaigns.service';
import { createCampaignAudienceBuilder } from './modules/campaign-audience-builder/campaign-audience-builder.service';
import {
  createCompetitorCrawler,
  scheduleCompetitorCrawl,
} from './modules/competitor-search/crawler/crawler';
import { createCompetitorSearchService } from './modules/competitor-search/competitor-search.service';
import { scheduleSampleCorpus } from './modules/competitor-search/sample-corpus';
import { createHealthService } from './modules/health/health.service';
import { demoAccounts } from './modules/identity/demo-accounts';
import { createIdentityService } from './modules/identity/identity.service';
import { createFeedRefresher } from './modules/market-research/feed-refresher';
import { createMarketResearchService } from './modules/market-research/market-research.service';

export type ServicesDeps = {
  config: Config;
  database: Database;
  /** The ports to the outside (adapters.ts createAdapters, or a test's replacements). */
  adapters: AppAdapters;
  log: FastifyBaseLogger;
  metrics: Metrics;
  /** The clock access decisions are timed by (ms since the epoch); tests move it on. */
  now?: () => number;
};

/**
 * Every use case of GEM, built once from the config, the database and the adapters: server.ts
 * and the tests' buildTestApp both call this, then hand the result to buildApp, which only
 * registers plugins and routes. Background tasks are registered on the one scheduler here and
 * run once the app listens (`start`); `close` stops them and the adapters.
 */
export function createServices({ config, database, adapters, log, metrics, now }: ServicesDeps) {
  const { db } = database;
  metrics.watchDatabase(database);

  // Background work, once across instances: modules register their tasks on the one scheduler.
  const scheduler = createScheduler({ db, log: log.child({ module: 'scheduler' }) });
  scheduleBackgroundWork({ config, adapters, db, log, metrics, scheduler });

  // The brand profile in force: sent by every generator, checked against after each generation
  // and on demand. A save expands its terms in the inflection worker (started at the first save).
  const inflection = createInflection();
  const brandVoice = createBrandVoice({ db, inflection, ...(now ? { now } : {}) });
  const ai = createAiPlatform({ db, model: adapters.textModel, ai: config.ai, log, metrics, brandVoice });
  const { competitors, feeds } = config;
  const briefCreator = createBriefCreator({
    db,
    ai,
    // A turn makes at most four model calls, each up to the timeout: the answer and one repair,
    // each asked once more when the answer was cut at the output limit.
    turnLeaseMs: 4 * config.ai.timeoutMs + 30_000,
    contextTokens: config.ai.contextTokens,
  });
  const writingTools = createWritingTools({ db, ai, maxOutputTokens: config.ai.maxOutputTokens });
  const marketResearch = createMarketResearchService({ db, sources: feeds.sources });
  const competitorSearch = createCompetitorSearchService({ db, search: adapters.webSearch, competitors });
  const identity = createIdentityService({ db, auth: config.auth, access: config.access, now, demoAccounts });
  return {
    identityProvider: adapters.identityProvider,
    identity,
    health: createHealthService({ database, version: packageJson.version }),
    ai,
    brandVoice,
    writingTools,
    briefCreator,
    // A campaign is opened from a finished brief, read through the brief creator (modules never
    // import each other), and names its CRM campaign, checked through the Crm port.
    campaigns: createCampaigns({
      db,
      finishedBrief: briefCreator.finishedBrief,
      crmCampaign: (id) => adapters.crm.getCampaign(id),
    }),
    // Its assets are made by the writing tools' own pipeline.
    campaignAssets: createCampaignAssets({
      db,
      write: (request) => writingTools.streamTool(request as Parameters<typeof writingTools.streamTool>[0]),
      concurrent: config.ai.limits.concurrent,
    }),
    // What a campaign hands over: read only, for anyone who may read it.
    campaignPack: createCampaignPack({ db, csvReports: adapters.crm.provider === 'embedded' }),
    // Its audience: segments whose contacts join its CRM campaign, through the Crm port.
    campaignAudience: createCampaignAudience({ db, crm: adapters.crm }),
    // Its sources are Market Research items and pages of the competitors GEM follows.
    campaignSources: createCampaignSources({
      db,
      lookups: {
        marketResearchItem: (id) => marketResearch.getItem(id),
        isCompetitorPage: (link) => competitorSearch.isCompetitorPage(link),
      },
    }),
    marketResearch,
    competitorSearch,
    campaignAudienceBuilder: createCampaignAudienceBuilder({ crm: adapters.crm, ai, db, metrics }),
    // The admin area: access, usage, allowances, the audit log, the integrations' health.
    // Its access part reads how someone gets in, and drops a revoked user's remembered decision,
    // through the identity service (modules never import each other).
    admin: createAdmin({
      db,
      config,
      ai,
      brandVoice,
      adapters,
      scheduler,
      log: log.child({ module: 'admin' }),
      now,
      identity: { ruleOf: identity.ruleOf, forget: identity.forget },
    }),
    /** Starts the background work; a listening server calls it, app.inject() tests never do. */
    start: () => scheduler.start(),
    /** Stops the background work, the embedded identity provider and the adapters. */
    async close() {
      await scheduler.stop();
      await inflection.close();
      await brandVoice.close();
      await adapters.identityProvider.embedded?.stop();
      await adapters.close?.();
    },
  };
}

export type Services = ReturnType<typeof createServices>;

/** The market feeds' refresh, the sample corpus and, when on, the competitor crawl. */
function scheduleBackgroundWork({
  config,
  adapters,
  db,
  log,
  metrics,
  scheduler,
}: Pick<ServicesDeps, 'config' | 'adapters' | 'log' | 'metrics'> & {
  db: Database['db'];
  scheduler: ReturnType<typeof createScheduler>;
}) {
  const { feeds, competitors } = config;
  createFeedRefresher({
    db,
    sources: feeds.sources,
    reader: adapters.feedReader,
    refreshMinutes: feeds.refreshMinutes,
    retentionDays: feeds.retentionDays,
    log: log.child({ module: 'market-research' }),
    scheduler,
    metrics,
  });
  // Competitor search: with crawling off, the bundled sample corpus while the index has no real page.
  scheduleSampleCorpus({
    db,
    competitors: competitors.list,
    crawl: competitors.crawl,
    scheduler,
    log: log.child({ module: 'competitor-search' }),
  });
  // The competitor crawler (GEM_COMPETITORS_CRAWL): at start, then every crawlMinutes, one instance at a time.
  if (!competitors.crawl) return;
  const crawler = createCompetitorCrawler({
    db,
    competitors: competitors.list,
    delayMs: competitors.crawlDelayMs,
    maxPagesPerRound: competitors.maxPagesPerRound,
    allowPrivateHosts: competitors.allowPrivateHosts,
    log: log.child({ module: 'competitor-crawler' }),
  });
  scheduleCompetitorCrawl(scheduler, crawler, competitors.crawlMinutes);
}
