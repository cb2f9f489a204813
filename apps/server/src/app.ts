import compress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger, type FastifyPluginAsync, type RouteOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import packageJson from '../package.json' with { type: 'json' };
import type { AppAdapters } from './adapters';
import type { Config } from './config';
import type { Database } from './db/client';
import { feedImageSources } from './integrations/feeds/feeds-file';
import { embeddedIdpPlugin } from './integrations/oidc/embedded/plugin';
import { createAiPlatform } from './lib/ai/ai-platform';
import { serializerCompiler } from './lib/http/serializer';
import { RequestLogController, requestIdGenerator, requestLoggerFactory } from './lib/logger';
import { createMetrics, type Metrics } from './lib/metrics';
import { createScheduler } from './lib/scheduler';
import { createWritingTools } from './lib/writing-tools/writing-tools.service';
import { articleRoutes } from './modules/article/article.routes';
import { campaignAudienceBuilderRoutes } from './modules/campaign-audience-builder/campaign-audience-builder.routes';
import { createCampaignAudienceBuilder } from './modules/campaign-audience-builder/campaign-audience-builder.service';
import { briefCreatorRoutes } from './modules/brief-creator/brief-creator.routes';
import { createBriefCreator } from './modules/brief-creator/brief-creator.service';
import { generatorsRoutes } from './modules/generators/generators.routes';
import { healthRoutes } from './modules/health/health.routes';
import { createHealthService } from './modules/health/health.service';
import { paidAdsRoutes } from './modules/paid-ads/paid-ads.routes';
import { socialMediaPostRoutes } from './modules/social-media-post/social-media-post.routes';
import { summarizePromptRoutes, summarizeRoutes } from './modules/summarize/summarize.routes';
import { teaserGeneratorRoutes } from './modules/teaser-generator/teaser-generator.routes';
import { competitorSearchRoutes } from './modules/competitor-search/competitor-search.routes';
import { createCompetitorSearchService } from './modules/competitor-search/competitor-search.service';
import { scheduleSampleCorpus } from './modules/competitor-search/sample-corpus';
import {
  createCompetitorCrawler,
  scheduleCompetitorCrawl,
} from './modules/competitor-search/crawler/crawler';
import { createFeedRefresher } from './modules/market-research/feed-refresher';
import { marketResearchRoutes } from './modules/market-research/market-research.routes';
import { createMarketResearchService } from './modules/market-research/market-research.service';
import { visualBrandCheckerRoutes } from './modules/visual-brand-checker/visual-brand-checker.routes';
import { authConfigRoutes, checkAppAccessRoutes } from './modules/identity/identity.routes';
import { createIdentityService } from './modules/identity/identity.service';
import { authPlugin } from './plugins/auth';
import { clientErrorHandler, errorsPlugin } from './plugins/errors';
import { gracefulDrainPlugin } from './plugins/graceful-drain';
import { securityHeadersPlugin } from './plugins/security-headers';
import { storableInputPlugin } from './plugins/storable-input';
import { webAppPlugin } from './plugins/web-app';

export type AppDeps = {
  config: Config;
  database: Database;
  /** The ports to the outside, built by server.ts (or a test, against its test servers). */
  adapters: AppAdapters;
  /** The process's logger (lib/logger.ts createLogger). */
  logger: FastifyBaseLogger;
  /**
   * What the app counts into (lib/metrics.ts), served by server.ts on its own port. Without
   * it the app counts into a registry of its own that nobody reads.
   */
  metrics?: Metrics;
  /** Called for every route as it is registered (the route-table test walks them). */
  onRoute?: (route: RouteOptions) => void;
  /** More routes for the protected scope: tests put probe routes behind the gate here. */
  protectedRoutes?: FastifyPluginAsync[];
  /** The clock access decisions are timed by (ms since the epoch); tests move it on. */
  now?: () => number;
};

/** Composes the Fastify instance from what it is handed: the whole route table is in this function. */
export async function buildApp({
  config,
  database,
  adapters,
  logger,
  metrics = createMetrics(),
  onRoute,
  protectedRoutes = [],
  now,
}: AppDeps) {
  const { trustProxy } = config;
  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdGenerator(trustProxy),
    // Each request's logger is made when something logs through it, not for every request.
    childLoggerFactory: requestLoggerFactory,
    // One log line per request instead of Fastify's two; each answered request counted into the
    // metrics by its route pattern (never the URL), method and status.
    logController: new RequestLogController(logger, {
      completed: (req, reply) =>
        metrics.request(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime),
    }),
    bodyLimit: config.bodyLimitBytes,
    // A hop count: trust that many proxies in front of GEM, so req.ip is the address they saw.
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // gracefulDrainPlugin answers 503 in GEM's error shape instead.
    return503OnClosing: false,
    // What Node's HTTP parser refuses (a 431, a malformed request) in GEM's error shape too.
    clientErrorHandler,
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Callback hooks on every request: an async one costs a promise and a microtask each time.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });

  metrics.watchDatabase(database);
  await app.register(errorsPlugin);
  await app.register(storableInputPlugin);
  await app.register(gracefulDrainPlugin);
  await app.register(securityHeadersPlugin, {
    production: config.env === 'production',
    // The SPA reads discovery and calls the token endpoint of an external issuer itself.
    connectOrigins: config.auth.mode === 'external' ? [new URL(config.auth.issuer).origin] : [],
    frameOrigins: config.brandCheckerUrl ? [new URL(config.brandCheckerUrl).origin] : [],
    imageSources: feedImageSources(config.feeds.sources, config.feeds.allowPrivateHosts),
  });
  // Answers over 1 KB to clients that accept it. Request bodies are not decompressed: no GEM
  // client sends them compressed, and that would be a preParsing hook on every request.
  await app.register(compress, { threshold: 1024, globalDecompression: false });

  const { db } = database;
  const { identityProvider: idp } = adapters;
  app.addHook('onClose', async () => idp.embedded?.stop());
  app.addHook('onClose', async () => adapters.close?.());
  const identity = createIdentityService({ db, auth: config.auth, access: config.access, now });

  // Background work, once across instances: modules register their tasks on the one scheduler.
  const scheduler = createScheduler({ db, log: app.log.child({ module: 'scheduler' }) });
  const { feeds } = config;
  createFeedRefresher({
    db,
    sources: feeds.sources,
    reader: adapters.feedReader,
    refreshMinutes: feeds.refreshMinutes,
    retentionDays: feeds.retentionDays,
    log: app.log.child({ module: 'market-research' }),
    scheduler,
    metrics,
  });
  // Competitor search: with crawling off, the bundled sample corpus while the index has no real page.
  scheduleSampleCorpus({
    db,
    competitors: config.competitors.list,
    crawl: config.competitors.crawl,
    scheduler,
    log: app.log.child({ module: 'competitor-search' }),
  });
  // The competitor crawler (GEM_COMPETITORS_CRAWL): at start, then every crawlMinutes, one instance at a time.
  if (config.competitors.crawl) {
    const { competitors } = config;
    scheduleCompetitorCrawl(
      scheduler,
      createCompetitorCrawler({
        db,
        competitors: competitors.list,
        delayMs: competitors.crawlDelayMs,
        maxPagesPerRound: competitors.maxPagesPerRound,
        allowPrivateHosts: competitors.allowPrivateHosts,
        log: app.log.child({ module: 'competitor-crawler' }),
      }),
      competitors.crawlMinutes,
    );
  }
  // A listening server runs background work (feeds at start, then on schedule); app.inject() tests never start it.
  app.addHook('onListen', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());

  const ai = createAiPlatform({ db, model: adapters.textModel, ai: config.ai, log: app.log, metrics });
  const writingTools = createWritingTools({ db, ai, maxOutputTokens: config.ai.maxOutputTokens });
  const briefCreator = createBriefCreator({
    db,
    ai,
    // A turn makes at most four model calls, each up to the timeout: the answer and one repair,
    // each asked once more when the answer was cut at the output limit.
    turnLeaseMs: 4 * config.ai.timeoutMs + 30_000,
    contextTokens: config.ai.contextTokens,
  });

  // Public API: answers without sign-in. Keep this list short; the route-table test names it.
  await app.register(async (api) => {
    await api.register(healthRoutes, {
      service: createHealthService({ database, version: packageJson.version }),
    });
    await api.register(authConfigRoutes, { service: identity });
  });

  // A valid access token, without hasAccess: only the call that tells the SPA about hasAccess.
  await app.register(async (api) => {
    await api.register(authPlugin, {
      verifier: idp.verifier,
      admit: identity.admitAfresh,
      requireAccess: false,
    });
    await api.register(checkAppAccessRoutes);
  });

  // Protected API: a valid access token and hasAccess. Every other /api route goes here.
  await app.register(async (api) => {
    await api.register(authPlugin, { verifier: idp.verifier, admit: identity.admit, requireAccess: true });
    await api.register(visualBrandCheckerRoutes, { url: config.brandCheckerUrl });
    // The AI writing tools (issue 4); each answers 503 ai_not_configured without an AI service.
    const writing = { ai, writingTools };
    await api.register(generatorsRoutes, writing);
    await api.register(articleRoutes, writing);
    await api.register(socialMediaPostRoutes, writing);
    await api.register(summarizeRoutes, writing);
    await api.register(summarizePromptRoutes, writing);
    await api.register(paidAdsRoutes, writing);
    await api.register(teaserGeneratorRoutes, writing);
    await api.register(briefCreatorRoutes, { briefCreator });
    await api.register(marketResearchRoutes, {
      service: createMarketResearchService({ db, sources: feeds.sources }),
    });
    await api.register(competitorSearchRoutes, {
      service: createCompetitorSearchService({
        db,
        search: adapters.webSearch,
        competitors: config.competitors,
      }),
    });
    await api.register(campaignAudienceBuilderRoutes, {
      builder: createCampaignAudienceBuilder({ crm: adapters.crm, ai, db, metrics }),
    });
    for (const routes of protectedRoutes) await api.register(routes);
  });

  if (idp.embedded) await app.register(embeddedIdpPlugin, idp.embedded.pluginOptions);
  await app.register(webAppPlugin, { webDistDir: config.webDistDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
