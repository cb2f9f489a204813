import { errorResponseSchema } from '@gem/contracts/errors';
import { isWebRoute } from '@gem/contracts/web-routes';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import type { FastifyPluginAsync, RouteOptions } from 'fastify';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badTokens } from '../test/bad-tokens';
import { createTestDatabase } from '../test/test-database';
import type { App } from './app';
import { accessClaims, buildTestApp, externalAuth, TEST_AUDIENCE, TEST_CLIENT_ID } from '../test/test-app';
import type { Config } from './config';
import { testConfig } from '../test/test-config';
import type { Database } from './db/client';
import { createAccessAdmin } from './modules/identity/identity.service';

/**
 * Walks every route the app registers. Each /api route that is not on the public list must
 * refuse every kind of bad token with 401, and a permitted user's token with no app access
 * with 403. A route added anywhere is walked too, so it cannot skip the gate unnoticed.
 */

// The only /api routes that answer without a token. Adding one here needs a security review.
const PUBLIC_API = new Set(['GET /api/health', 'GET /api/ready', 'GET /api/identity/auth-config']);
// Need a valid token but not hasAccess: the call that tells the SPA whether it has access, and
// the access request a user without access sends from the Access Denied page.
const TOKEN_ONLY_API = new Set([
  'GET /api/identity/check-app-access',
  'GET /api/identity/access-request',
  'POST /api/identity/access-request',
]);
// The admin area: administrators only (GEM_ADMIN_EMAILS; in tests the demo admin's e-mail).
const isAdminRoute = (url: string) => url.startsWith('/api/admin/');
// Pages, assets and the embedded provider: not /api, so the SPA shell and OIDC answer them.
const NON_API = [/^\/$/, /^\/\*$/, /^\/oidc\//];
// Besides those, the web app's prerendered pages (when apps/web is built): pages of the app.
const isKnownOutsideApi = (url: string) => NON_API.some((re) => re.test(url)) || isWebRoute(url);

// Probe routes behind the gate, standing in for the tool routes later issues add.
const probes: FastifyPluginAsync = async (api) => {
  api.get('/api/test/probe', async () => ({ ok: true }));
  api.post(
    '/api/test/probe/:id',
    { schema: { body: z.object({ text: z.string().min(1) }), params: z.object({ id: z.string() }) } },
    async () => ({ ok: true }),
  );
};

let issuer: OidcIssuer;
let database: Database;
let app: App;
const routes: { method: string; url: string; query: string[] }[] = [];

/** The query parameters a route's schema names (a zod object), or none. */
function queryNames(route: RouteOptions): string[] {
  const schema = (route.schema as { querystring?: unknown } | undefined)?.querystring;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function externalConfig(issuerUrl: string): Config {
  const base = testConfig();
  return testConfig({
    auth: externalAuth(issuerUrl),
    access: { ...base.access, allowedDomains: [], requiredRoles: [] },
  });
}

beforeAll(async () => {
  issuer = await startOidcIssuer();
  database = await createTestDatabase();
  app = await buildTestApp({
    config: externalConfig(issuer.issuer),
    database,
    protectedRoutes: [probes],
    onRoute: (route: RouteOptions) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') routes.push({ method, url: route.url, query: queryNames(route) });
      }
    },
  });
  await app.ready();
  await createAccessAdmin({ db: database.db }).grant({
    issuer: issuer.issuer,
    subject: 'permitted',
    email: 'permitted@example.com',
  });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await issuer?.close();
});

const apiRoutes = () => routes.filter((r) => r.url.startsWith('/api/'));
const gated = () => apiRoutes().filter((r) => !PUBLIC_API.has(`${r.method} ${r.url}`));
// Parameters that must name something real for a permitted call to succeed; the rest get 'x'.
const exampleParams: Record<string, string> = { marketId: 'priority-clients', subMarketId: 'orlen' };
const concrete = (url: string) =>
  url.replace(/:([^/]+)/g, (_m, name: string) => exampleParams[name] ?? 'x').replace(/\*/g, 'x');

async function call(route: { method: string; url: string }, authorization?: string) {
  return app.inject({
    method: route.method as 'GET',
    url: concrete(route.url),
    headers: authorization === undefined ? {} : { authorization },
    ...(route.method === 'GET' ? {} : { payload: { text: 'x' } }),
  });
}

describe('the route table', () => {
  it('has only known routes outside /api, and gates the rest', () => {
    const outside = routes.filter((r) => !r.url.startsWith('/api/'));
    for (const r of outside) {
      expect(isKnownOutsideApi(r.url), `${r.method} ${r.url} is outside /api and not listed`).toBe(true);
    }
    // With an external issuer the embedded provider is not mounted at all.
    expect(routes.filter((r) => r.url.startsWith('/oidc'))).toEqual([]);
    expect(gated().map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/identity/check-app-access',
        'GET /api/test/probe',
        'POST /api/test/probe/:id',
      ]),
    );
  });

  it('has admin routes, and only in the admin scope', () => {
    expect(apiRoutes().filter((r) => isAdminRoute(r.url)).length).toBeGreaterThan(10);
  });

  it('lets a permitted user through on every gated route but the admin area, and an admin through there too', async () => {
    const permitted = await issuer.sign(accessClaims('permitted'));
    const admin = await issuer.sign(accessClaims('admin'));
    for (const route of gated()) {
      const token = isAdminRoute(route.url) ? admin : permitted;
      for (const scheme of ['Bearer', 'bearer']) {
        const res = await call(route, `${scheme} ${token}`);
        const where = `${route.method} ${route.url}`;
        // Past the gate a route may still refuse the probe body (400), lack its AI service (503),
        // or find no item of the example id (404, only where the path names an item).
        const names = route.url.includes(':');
        expect(names ? [200, 201, 400, 404, 503] : [200, 201, 400, 503], where).toContain(res.statusCode);
        if (res.statusCode !== 200) {
          const { code } = errorResponseSchema.parse(res.json()).error;
          expect(['validation_failed', 'ai_not_configured', 'not_found'], where).toContain(code);
        }
      }
    }
  });

  it('answers 401 with a Bearer challenge for every bad token on every gated route', async () => {
    const cases = await badTokens(issuer, accessClaims, {
      audience: TEST_AUDIENCE,
      clientId: TEST_CLIENT_ID,
    });
    expect(cases.length).toBeGreaterThanOrEqual(15);
    for (const route of gated()) {
      for (const { what, authorization } of cases) {
        const res = await call(route, authorization);
        const where = `${route.method} ${route.url} with ${what}`;
        expect(res.statusCode, where).toBe(401);
        expect(errorResponseSchema.parse(res.json()).error.code, where).toBe('unauthorized');
        const challenge = String(res.headers['www-authenticate']);
        expect(challenge, where).toMatch(/^Bearer realm="GEM"/);
        if (authorization !== undefined) expect(challenge, where).toContain('error="invalid_token"');
      }
    }
  });

  it('answers 403 on every gated route but the access check for a user without access', async () => {
    const token = `Bearer ${await issuer.sign(accessClaims('outsider'))}`;
    for (const route of gated()) {
      const res = await call(route, token);
      const where = `${route.method} ${route.url}`;
      if (route.url === '/api/identity/check-app-access') {
        expect(res.statusCode, where).toBe(200);
        expect(res.json(), where).toEqual({ hasAccess: false });
      } else if (TOKEN_ONLY_API.has(`${route.method} ${route.url}`)) {
        expect([200, 201, 400], where).toContain(res.statusCode);
      } else {
        expect(res.statusCode, where).toBe(403);
        expect(errorResponseSchema.parse(res.json()).error.code, where).toBe('forbidden');
      }
    }
  });

  it('answers 403 on every admin route for a permitted user who is not an administrator', async () => {
    const token = `Bearer ${await issuer.sign(accessClaims('permitted'))}`;
    const admin = gated().filter((r) => isAdminRoute(r.url));
    expect(admin.length).toBeGreaterThan(10);
    for (const route of admin) {
      const res = await call(route, token);
      const where = `${route.method} ${route.url}`;
      expect(res.statusCode, where).toBe(403);
      const { code, message } = errorResponseSchema.parse(res.json()).error;
      expect(code, where).toBe('forbidden');
      expect(message, where).toBe('Only GEM’s administrators can do this.');
    }
  });

  it("lets the SPA's scripts reach the external issuer (connect-src)", async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.headers['content-security-policy']).toContain(
      `connect-src 'self' ${new URL(issuer.issuer).origin}`,
    );
  });

  it('answers a NUL in any query-string or path parameter of any route with a 400 naming it', async () => {
    // The administrator may call every route, the admin area's too.
    const token = `Bearer ${await issuer.sign(accessClaims('admin'))}`;
    let checked = 0;
    for (const route of apiRoutes()) {
      const names = [...route.url.matchAll(/:([^/]+)/g)].map((m) => m[1]!);
      const cases = [
        ...names.map((name) => ({
          url: route.url.replace(/:([^/]+)/g, (_m, n: string) =>
            n === name ? 'a%00b' : (exampleParams[n] ?? 'x'),
          ),
          path: `params.${name}`,
        })),
        // Every parameter the schema names, and one it does not.
        ...[...route.query, 'unlisted'].map((name) => ({
          url: `${concrete(route.url)}?${name}=a%00b`,
          path: `querystring.${name}`,
        })),
      ];
      for (const { url, path } of cases) {
        const res = await app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: token },
          ...(route.method === 'GET' ? {} : { payload: { text: 'x' } }),
        });
        const where = `${route.method} ${url}`;
        expect(res.statusCode, where).toBe(400);
        const { code, issues } = errorResponseSchema.parse(res.json()).error;
        expect(code, where).toBe('validation_failed');
        expect(issues, where).toContainEqual({
          path,
          message: expect.stringContaining('cannot be stored') as unknown,
        });
        checked += 1;
      }
      // Half a surrogate pair as a URL carries it (its UTF-8 bytes): never a 500.
      const res = await app.inject({
        method: route.method as 'GET',
        url: `${concrete(route.url)}?${route.query[0] ?? 'unlisted'}=%ED%A0%BD`,
        headers: { authorization: token },
        ...(route.method === 'GET' ? {} : { payload: { text: 'x' } }),
      });
      expect(res.statusCode, `${route.method} ${route.url} with %ED%A0%BD`).not.toBe(500);
    }
    // The audience builder's reports and the markets' pages are among them.
    expect(checked).toBeGreaterThan(20);
  });

  it('answers the public routes without a token', async () => {
    for (const key of PUBLIC_API) {
      const [method, url] = key.split(' ') as [string, string];
      const res = await call({ method, url });
      expect(res.statusCode, key).toBe(200);
    }
  });
});
