import type { FastifyBaseLogger, FastifyPluginAsync, RouteOptions } from 'fastify';
import { createAdapters, type AdapterSeams, type AppAdapters } from '../src/adapters';
import { buildApp, type App } from '../src/app';
import type { AuthConfig, Config } from '../src/config';
import type { Database } from '../src/db/client';
import { createMetrics, type Metrics } from '../src/lib/metrics';
import { settleDemoAccounts } from '../src/modules/identity/demo-accounts';
import { createServices } from '../src/services';
import { testLogger, watchTestApp } from './log-capture';

/**
 * The one way tests build GEM: the same steps as server.ts (the adapters from config, the demo
 * accounts, createServices, buildApp), with the adapters pointed wherever the test's config points them (the
 * local test servers) and any of them replaced. Its logs go to the capture the suite scans for
 * secrets at its end (log-capture.ts), unless the test's config chose a log level or the test
 * hands in a logger of its own (to read the lines it writes).
 *
 * A listening app runs the background work (the feed refresh, the sample corpus, the crawl) only
 * when the test asks for it with `background: true`: the others would spend the machine on work
 * they never look at, and wait for it when they close.
 */
export async function buildTestApp({
  config,
  database,
  seams,
  adapters,
  metrics = createMetrics(),
  onRoute,
  protectedRoutes,
  now,
  logger = testLogger(config),
  background = false,
}: {
  config: Config;
  database: Database;
  seams?: AdapterSeams;
  adapters?: Partial<AppAdapters>;
  metrics?: Metrics;
  onRoute?: (route: RouteOptions) => void;
  protectedRoutes?: FastifyPluginAsync[];
  now?: () => number;
  logger?: FastifyBaseLogger;
  background?: boolean;
}): Promise<App> {
  const built = { ...(await createAdapters({ config, db: database.db, log: logger, seams })), ...adapters };
  await settleDemoAccounts({
    config,
    identityProvider: built.identityProvider,
    db: database.db,
    log: logger,
  });
  const services = createServices({ config, database, adapters: built, log: logger, metrics, now });
  if (!background) services.start = () => undefined;
  const app = await buildApp({ config, services, logger, metrics, onRoute, protectedRoutes });
  watchTestApp(app);
  return app;
}

/** The API audience and SPA client id of tests that sign in with an external issuer. */
export const TEST_AUDIENCE = 'api://gem-test';
export const TEST_CLIENT_ID = 'gem-test-spa';

/** Sign-in through an external OpenID issuer (the test-servers OIDC issuer), as Entra ID would be set up. */
export function externalAuth(
  issuer: string,
  ids = { audience: TEST_AUDIENCE, clientId: TEST_CLIENT_ID },
): AuthConfig {
  return {
    mode: 'external',
    publicUrl: 'http://localhost:3000',
    issuer,
    clientId: ids.clientId,
    scope: `${ids.audience}/access`,
    audience: ids.audience,
    requiredScope: undefined,
    demoAccounts: false,
    embeddedExplicit: false,
  };
}

/** The claims of a valid access token for `sub` (e-mail at `domain`) under externalAuth. */
export function accessClaims(
  sub: string,
  domain = 'example.com',
  ids = { audience: TEST_AUDIENCE, clientId: TEST_CLIENT_ID },
) {
  return { sub, aud: ids.audience, azp: ids.clientId, scope: 'access', email: `${sub}@${domain}`, name: sub };
}
