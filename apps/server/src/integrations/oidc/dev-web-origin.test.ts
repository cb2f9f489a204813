import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkcePair } from '../../../test/embedded-sign-in';
import { buildTestApp } from '../../../test/test-app';
import { configProblems, testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { parseConfig } from '../../config';
import type { Database } from '../../db/client';

/**
 * The Vite dev server's address is a redirect address of the embedded provider only when
 * GEM_DEV_WEB_ORIGIN names it, never by default and never in production.
 */

const DEV_SERVER = 'http://localhost:5173';

describe('GEM_DEV_WEB_ORIGIN', () => {
  it('is unset by default, in development too', () => {
    expect(parseConfig({}).auth.devWebOrigin).toBeUndefined();
    expect(parseConfig({ NODE_ENV: 'development' }).auth.devWebOrigin).toBeUndefined();
  });

  it('takes the origin of a dev server on this machine', () => {
    expect(parseConfig({ GEM_DEV_WEB_ORIGIN: 'http://localhost:5173/' }).auth.devWebOrigin).toBe(DEV_SERVER);
    expect(parseConfig({ GEM_DEV_WEB_ORIGIN: 'http://127.0.0.1:5174' }).auth.devWebOrigin).toBe(
      'http://127.0.0.1:5174',
    );
  });

  it('refuses another host, a path, production and an external issuer', () => {
    for (const value of [
      'https://evil.example:5173',
      'http://10.0.0.5:5173',
      'http://localhost:5173/app',
      'x',
    ]) {
      const problems = configProblems({ GEM_DEV_WEB_ORIGIN: value });
      expect(problems.length, value).toBeGreaterThan(0);
      for (const problem of problems) expect(problem).toMatch(/^GEM_DEV_WEB_ORIGIN: /);
    }
    expect(
      configProblems({ NODE_ENV: 'production', GEM_EMBEDDED_IDP: 'true', GEM_DEV_WEB_ORIGIN: DEV_SERVER }),
    ).toEqual([expect.stringMatching(/^GEM_DEV_WEB_ORIGIN: .*NODE_ENV=production/)]);
    expect(
      configProblems({
        GEM_OIDC_ISSUER: 'https://login.example.com/tenant/v2.0',
        GEM_OIDC_CLIENT_ID: 'spa',
        GEM_OIDC_SCOPE: 'api://gem/access',
        GEM_OIDC_AUDIENCE: 'api://gem',
        GEM_DEV_WEB_ORIGIN: DEV_SERVER,
      }),
    ).toEqual([expect.stringMatching(/^GEM_DEV_WEB_ORIGIN: only the embedded provider/)]);
  });
});

describe('the embedded provider', () => {
  let database: Database;
  const apps: App[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.close();
  });

  async function developmentApp(devWebOrigin?: string) {
    const base = testConfig();
    const app = await buildTestApp({
      // As `npm run dev` runs it: NODE_ENV development (the default).
      config: testConfig({ env: 'development', auth: { ...base.auth, devWebOrigin } }),
      database,
    });
    apps.push(app);
    return app;
  }

  /** Starts a sign-in that is to come back to `redirectTo`. */
  const authorize = (app: App, redirectTo: string) =>
    app.inject({
      method: 'GET',
      url: `/oidc/auth?${new URLSearchParams({
        client_id: 'gem-web',
        response_type: 'code',
        scope: 'openid',
        redirect_uri: redirectTo,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      })}`,
    });

  it('does not register the dev server as a redirect address by default', async () => {
    const app = await developmentApp();
    for (const devServer of [DEV_SERVER, 'http://127.0.0.1:5173']) {
      const res = await authorize(app, `${devServer}/`);
      expect(res.statusCode, devServer).toBe(400);
      expect(res.body).toContain('redirect_uri');
      expect(res.headers.location).toBeUndefined();
    }
    // GEM's own address still works.
    const own = await authorize(app, `${testConfig().auth.publicUrl}/`);
    expect(own.statusCode).toBe(303);
  });

  it('registers the dev server when GEM_DEV_WEB_ORIGIN names it', async () => {
    const app = await developmentApp(DEV_SERVER);
    expect((await authorize(app, `${DEV_SERVER}/`)).statusCode).toBe(303);
    // Only the origin named, not its 127.0.0.1 twin.
    expect((await authorize(app, 'http://127.0.0.1:5173/')).statusCode).toBe(400);
  });
});
