import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../src/app';
import { DEMO_MODEL } from '../src/config';
import type { Database } from '../src/db/client';
import { PERMITTED_DOMAIN } from './ai-harness';
import { accessClaims, buildTestApp, externalAuth } from './test-app';
import { testConfig } from './test-config';
import { createTestDatabase } from './test-database';

/**
 * GEM on the built-in stand-in (GEM_AI_PROVIDER=demo, as on the embedded defaults with no AI
 * service), for the tests of what its answers say; `user` signs every request.
 */
export function useDemoApp(user: string) {
  let issuer: OidcIssuer;
  let database: Database;
  let app: App;

  beforeAll(async () => {
    [issuer, database] = await Promise.all([startOidcIssuer(), createTestDatabase()]);
    const base = testConfig();
    app = await buildTestApp({
      database,
      config: testConfig({
        auth: externalAuth(issuer.issuer),
        access: { ...base.access, allowedDomains: [PERMITTED_DOMAIN] },
        ai: { ...base.ai, service: { provider: 'demo', model: DEMO_MODEL } },
      }),
    });
    await app.ready();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await Promise.all([issuer?.close(), database?.close()]);
  });

  const headers = async () => ({
    authorization: `Bearer ${await issuer.sign(accessClaims(user, PERMITTED_DOMAIN))}`,
  });

  return {
    app: () => app,
    db: () => database.db,
    headers,
    /** A request of the signed-in user. */
    async call(method: 'GET' | 'POST', url: string, payload?: object) {
      return app.inject({ method, url, headers: await headers(), ...(payload ? { payload } : {}) });
    },
  };
}
