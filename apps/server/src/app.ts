import compress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger, type FastifyPluginAsync, type RouteOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { feedImageSources } from './integrations/feeds/feeds-file';
import { embeddedIdpPlugin } from './integrations/oidc/embedded/plugin';
import { serializerCompiler } from './lib/http/serializer';
import { RequestLogController, requestIdGenerator, requestLoggerFactory } from './lib/request-log';
import type { Metrics } from './lib/metrics';
import { accessRequestRoutes } from './modules/admin/access-request.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { aiStatusRoutes } from './modules/ai-status/ai-status.routes';
import { brandVoiceRoutes } from './modules/brand-voice/brand-voice.routes';
import { briefCreatorRoutes } from './modules/brief-creator/brief-creator.routes';
import { campaignAssetsRoutes } from './modules/campaigns/campaign-assets.routes';
import { campaignPackRoutes } from './modules/campaigns/campaign-pack.routes';
import { campaignAudienceRoutes } from './modules/campaigns/campaign-audience.routes';
import { campaignSourcesRoutes } from './modules/campaigns/campaign-sources.routes';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { campaignAudienceBuilderRoutes } from './modules/campaign-audience-builder/campaign-audience-builder.routes';
import { competitorSearchRoutes } from './modules/competitor-search/competitor-search.routes';
import { healthRoutes } from './modules/health/health.routes';
import { authConfigRoutes, checkAppAccessRoutes } from './modules/identity/identity.routes';
import { marketResearchRoutes } from './modules/market-research/market-research.routes';
import { visualBrandCheckerRoutes } from './modules/visual-brand-checker/visual-brand-checker.routes';
import { writingToolsRoutes } from './modules/writing-tools/writing-tools.routes';
import { authPlugin } from './plugins/auth';
import { clientErrorHandler, errorsPlugin } from './plugins/errors';
import { gracefulDrainPlugin } from './plugins/graceful-drain';
import { securityHeadersPlugin } from './plugins/security-headers';
import { storableInputPlugin } from './plugins/storable-input';
import { webAppPlugin } from './plugins/web-app';
import type { Services } from './services';

export type AppDeps = {
  config: Config;
  /** GEM's use cases, built by services.ts createServices (server.ts, or a test's buildTestApp). */
  services: Services;
  /** The process's logger (lib/logger.ts createLogger). */
  logger: FastifyBaseLogger;
  /** What the app counts requests into (lib/metrics.ts), the registry the services count into. */
  metrics: Metrics;
  /** Called for every route as it is registered (the route-table test walks them). */
  onRoute?: (route: RouteOptions) => void;
  /** More routes for the protected scope: tests put probe routes behind the gate here. */
  protectedRoutes?: FastifyPluginAsync[];
};

/** Composes the Fastify instance: its plugins, then the whole route table, in three scopes. */
export async function buildApp({
  config,
  services,
  logger,
  metrics,
  onRoute,
  protectedRoutes = [],
}: AppDeps) {
  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdGenerator(config.trustProxy),
    // Each request's logger is made when something logs through it, not for every request.
    childLoggerFactory: requestLoggerFactory,
    // One log line per request instead of Fastify's two; each answered request counted into the
    // metrics by its route pattern (never the URL), method and status.
    logController: new RequestLogController(logger, {
      completed: (req, reply) =>
        metrics.request(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime),
    }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: proxyTrust(config.trustProxy),
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
  // A listening server runs background work (feeds at start, then on schedule); app.inject() tests never start it.
  app.addHook('onListen', async () => services.start());
  app.addHook('onClose', async () => services.close());

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

  const { identity, identityProvider: idp } = services;

  // Public API: answers without sign-in. Keep this list short; the route-table test names it.
  await app.register(async (api) => {
    await api.register(healthRoutes, { service: services.health });
    await api.register(authConfigRoutes, { service: identity });
  });

  // A valid access token, without hasAccess: only the call that tells the SPA about hasAccess.
  await app.register(async (api) => {
    await api.register(authPlugin, {
      verifier: idp.verifier,
      admit: identity.admit,
      requireAccess: false,
    });
    await api.register(checkAppAccessRoutes);
    await api.register(accessRequestRoutes, { service: services.admin.access });
  });

  // The admin area: a valid access token of one of GEM's administrators (GEM_ADMIN_EMAILS,
  // GEM_ADMIN_ROLES); everyone else gets 403. The route-table test walks every route here.
  await app.register(async (api) => {
    await api.register(authPlugin, {
      verifier: idp.verifier,
      admit: identity.admit,
      requireAccess: true,
      requireAdmin: true,
    });
    await api.register(adminRoutes, { admin: services.admin });
  });

  // Protected API: a valid access token and hasAccess. Every other /api route goes here.
  await app.register(async (api) => {
    await api.register(authPlugin, { verifier: idp.verifier, admit: identity.admit, requireAccess: true });
    await api.register(visualBrandCheckerRoutes, { url: config.brandCheckerUrl });
    await api.register(aiStatusRoutes, { ai: services.ai });
    await api.register(brandVoiceRoutes, { brandVoice: services.brandVoice });
    await api.register(writingToolsRoutes, { ai: services.ai, writingTools: services.writingTools });
    await api.register(briefCreatorRoutes, { briefCreator: services.briefCreator });
    await api.register(campaignsRoutes, { campaigns: services.campaigns });
    await api.register(campaignAssetsRoutes, { assets: services.campaignAssets, ai: services.ai });
    await api.register(campaignPackRoutes, { pack: services.campaignPack });
    await api.register(campaignSourcesRoutes, { sources: services.campaignSources });
    await api.register(campaignAudienceRoutes, { audience: services.campaignAudience });
    await api.register(marketResearchRoutes, { service: services.marketResearch });
    await api.register(competitorSearchRoutes, { service: services.competitorSearch });
    await api.register(campaignAudienceBuilderRoutes, { builder: services.campaignAudienceBuilder });
    for (const routes of protectedRoutes) await api.register(routes);
  });

  if (idp.embedded) await app.register(embeddedIdpPlugin, idp.embedded.pluginOptions);
  await app.register(webAppPlugin, { webDistDir: config.webDistDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/** A hop count trusts that many proxies in front of GEM, so req.ip is the address they saw. */
function proxyTrust(trustProxy: Config['trustProxy']) {
  return typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy;
}
