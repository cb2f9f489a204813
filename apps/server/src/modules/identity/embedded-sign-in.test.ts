import { authConfigResponseSchema, checkAppAccessResponseSchema } from '@gem/contracts/identity';
import { and, eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import providerContext from 'oidc-provider/lib/helpers/als.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  freePort,
  openSignInPage,
  signIn,
  submitSignIn,
  tokenRequest,
  type AuthConfig,
} from '../../../test/embedded-sign-in';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { buildTestApp } from '../../../test/test-app';
import type { Config } from '../../config';
import { testConfig } from '../../../test/test-config';
import type { Database } from '../../db/client';
import { users } from '../../db/schema/index';
import { createAccessAdmin } from './identity.service';
import { EMBEDDED_ISSUER_KEY } from '../../integrations/oidc/token-verifier';
import { createLocalAccounts } from '../../integrations/oidc/embedded/local-accounts';

/** The embedded provider over real HTTP, on a listening server, the way the SPA uses it. */

const DECISION_CACHE_MS = 60_000;
/** Moves the clock access decisions are timed by. */
let clockAhead = 0;
const THROTTLE_PER_ACCOUNT = 4;

let database: Database;
let app: App;
let appConfig: Config;
let origin: string;
let config: AuthConfig & { audience: string };

const checkAccess = (token: string) =>
  fetch(`${origin}/api/identity/check-app-access`, { headers: { authorization: `Bearer ${token}` } });
const probe = (token: string) =>
  fetch(`${origin}/api/test/probe`, { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  database = await createTestDatabase();
  // The issuer names the address the test talks to, so the port is chosen first.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const base = testConfig();
  appConfig = testConfig({
    auth: { ...base.auth, publicUrl: origin, issuer: `${origin}/oidc`, audience: `${origin}/api` },
    access: { ...base.access, decisionCacheMs: DECISION_CACHE_MS },
  });
  app = await buildTestApp({
    config: appConfig,
    database,
    seams: { identity: { throttle: { perAccount: THROTTLE_PER_ACCOUNT } } },
    protectedRoutes: [async (api) => void api.get('/api/test/probe', async () => ({ ok: true }))],
    now: () => Date.now() + clockAhead,
  });
  await app.listen({ port, host: '127.0.0.1' });
  config = authConfigResponseSchema.parse(await (await fetch(`${origin}/api/identity/auth-config`)).json());
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('the auth config the SPA reads', () => {
  it('points at the embedded provider, with the resource, three contacts and the demo accounts', () => {
    expect(config).toEqual({
      authority: `${origin}/oidc`,
      clientId: 'gem-web',
      scope: 'openid profile email offline_access gem.api',
      resource: `${origin}/api`,
      audience: `${origin}/api`,
      embedded: true,
      accessContacts: ['marketing-ops@example.com', 'it-servicedesk@example.com', 'security@example.com'],
      // Demo accounts are on in tests (a loopback server outside production): /login lists them.
      demoAccounts: [
        { email: 'marketer@example.com', password: 'marketer', label: 'Demo Marketer' },
        { email: 'colleague@example.com', password: 'colleague', label: 'Demo Colleague' },
        { email: 'outsider@example.com', password: 'outsider', label: 'Demo Outsider' },
        { email: 'admin@example.com', password: 'admin', label: 'Demo Admin' },
      ],
    });
  });

  it('publishes discovery for the issuer under /oidc, with PKCE S256 only', async () => {
    const res = await fetch(`${origin}/oidc/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(`${origin}/oidc`);
    expect(doc.token_endpoint).toBe(`${origin}/oidc/token`);
    expect(doc.end_session_endpoint).toBe(`${origin}/oidc/session/end`);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
  });
});

describe('signing in', () => {
  it('gives the marketer a one-hour JWT access token for the API, which the API accepts', async () => {
    const tokens = await signIn(new Browser(origin), config, 'marketer@example.com', 'marketer');
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      aud: config.audience,
      iss: config.authority,
      email: 'marketer@example.com',
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();

    const res = await checkAccess(tokens.access_token);
    expect(res.status).toBe(200);
    expect(checkAppAccessResponseSchema.parse(await res.json())).toEqual({ hasAccess: true });
    expect((await probe(tokens.access_token)).status).toBe(200);

    // Recorded for audit by issuer + subject, with e-mail, name and when last seen.
    const [user] = await database.db
      .select()
      .from(users)
      .where(and(eq(users.issuer, EMBEDDED_ISSUER_KEY), eq(users.subject, String(claims.sub))));
    expect(user).toMatchObject({ email: 'marketer@example.com', displayName: 'Demo Marketer' });
    expect(user?.lastSeenAt).toBeInstanceOf(Date);
  });

  it("leaves the provider's request context off once it has answered, so GEM's requests run no async hooks", async () => {
    // Node 20 and 22 (without AsyncContextFrame) say whether an AsyncLocalStorage is entered.
    const entered = () => (providerContext as unknown as { enabled?: boolean }).enabled === true;
    // Two sign-ins at once: the context stays on while either is in the provider.
    const [first, second] = await Promise.all([
      signIn(new Browser(origin), config, 'marketer@example.com', 'marketer'),
      signIn(new Browser(origin), config, 'marketer@example.com', 'marketer'),
    ]);
    expect(entered()).toBe(false);
    expect((await checkAccess(first.access_token)).status).toBe(200);
    expect((await checkAccess(second.access_token)).status).toBe(200);
  });

  it('refuses the ID token as a bearer token', async () => {
    const tokens = await signIn(new Browser(origin), config, 'marketer@example.com', 'marketer');
    expect(tokens.id_token).toBeTruthy();
    const res = await checkAccess(tokens.id_token ?? '');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('renews with the refresh token, rotating it (the old one stops working)', async () => {
    const browser = new Browser(origin);
    const first = await signIn(browser, config, 'marketer@example.com', 'marketer');
    const renewed = await tokenRequest(browser, config, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
      resource: config.audience,
    });
    expect(renewed.status).toBe(200);
    const accessToken = String(renewed.body.access_token);
    expect(decodeJwt(accessToken).aud).toBe(config.audience);
    expect((await checkAccess(accessToken)).status).toBe(200);
    expect(renewed.body.refresh_token).toBeTruthy();
    expect(renewed.body.refresh_token).not.toBe(first.refresh_token);

    // Without `resource` the granted one is used (oidc-client-ts may not send it on renewal).
    const again = await tokenRequest(browser, config, {
      grant_type: 'refresh_token',
      refresh_token: String(renewed.body.refresh_token),
    });
    expect(again.status).toBe(200);
    expect(decodeJwt(String(again.body.access_token)).aud).toBe(config.audience);

    const reused = await tokenRequest(browser, config, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
  });

  it('refuses a code exchange without the PKCE verifier', async () => {
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, config);
    const done = await submitSignIn(browser, page, 'marketer@example.com', 'marketer');
    const code = new URL(done.url).searchParams.get('code') ?? '';
    const res = await tokenRequest(browser, config, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${origin}/`,
      code_verifier: 'a'.repeat(43),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('shows GEM’s sign-in page under the app’s CSP, with no inline script or style', async () => {
    const page = await openSignInPage(new Browser(origin), config);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('<label for="email">Email</label>');
    expect(page.html).toContain('<label for="password">Password</label>');
    expect(page.html).toContain('<button type="submit">Sign in</button>');
    expect(page.html).not.toMatch(/<script(?![^>]+\bsrc=)|<style|\sstyle=/);
    expect(page.html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const csp = page.res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("script-src 'self'");
    const css = /href="([^"]+\.css)"/.exec(page.html)?.[1] ?? '';
    const stylesheet = await fetch(`${origin}${css}`);
    expect(stylesheet.status).toBe(200);
    expect(await stylesheet.text()).toContain('#fd5108');
  });

  it("says 'Invalid email or password' for a wrong password or an unknown e-mail, keeping the e-mail", async () => {
    for (const [email, password] of [
      ['marketer@example.com', 'wrong-password'],
      ['nobody@example.com', 'marketer'],
    ] as const) {
      const browser = new Browser(origin);
      const page = await openSignInPage(browser, config);
      const { res } = await submitSignIn(browser, page, email, password);
      const html = await res.text();
      expect(res.status).toBe(401);
      expect(html).toContain('Invalid email or password');
      expect(html).toContain(`value="${email}"`);
      expect(html).not.toContain(password);
    }
  });

  it('refuses a form without its CSRF token or posted from another origin', async () => {
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, config);
    const noToken = await submitSignIn(
      browser,
      { ...page, csrf: 'forged' },
      'marketer@example.com',
      'marketer',
    );
    expect(noToken.res.status).toBe(400);
    const foreign = await submitSignIn(browser, page, 'marketer@example.com', 'marketer', {
      origin: 'https://evil.example',
    });
    expect(foreign.res.status).toBe(400);
  });

  it('stops accepting passwords for an account after repeated failures', async () => {
    await createLocalAccounts(database.db).add({ email: 'target@example.com', password: 'correct-horse' });
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, config);
    for (let i = 0; i < THROTTLE_PER_ACCOUNT; i += 1) {
      expect((await submitSignIn(browser, page, 'target@example.com', `guess-${i}`)).res.status).toBe(401);
    }
    const { res } = await submitSignIn(browser, page, 'target@example.com', 'correct-horse');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.text()).toContain('Too many failed sign-in attempts');
  });
});

describe('access', () => {
  it('lets the colleague in like the marketer: a second permitted demo account, for sharing', async () => {
    const tokens = await signIn(new Browser(origin), config, 'colleague@example.com', 'colleague');
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email: 'colleague@example.com' });
    const res = await checkAccess(tokens.access_token);
    expect(await res.json()).toEqual({ hasAccess: true });
    expect((await probe(tokens.access_token)).status).toBe(200);
    const [user] = await database.db.select().from(users).where(eq(users.email, 'colleague@example.com'));
    expect(user).toMatchObject({ issuer: EMBEDDED_ISSUER_KEY, displayName: 'Demo Colleague' });
  });

  it('lets the outsider sign in, but hasAccess is false and the API refuses them', async () => {
    const tokens = await signIn(new Browser(origin), config, 'outsider@example.com', 'outsider');
    const res = await checkAccess(tokens.access_token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hasAccess: false });
    const refused = await probe(tokens.access_token);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden');
  });

  it('applies a revoked grant within the decision cache window, even for a valid token', async () => {
    const account = await createLocalAccounts(database.db).add({
      email: 'leaver@example.com',
      password: 'leaver-password',
    });
    const admin = createAccessAdmin({ db: database.db });
    await admin.grant({ issuer: EMBEDDED_ISSUER_KEY, subject: account.id, email: account.email });
    const tokens = await signIn(new Browser(origin), config, 'leaver@example.com', 'leaver-password');
    expect((await probe(tokens.access_token)).status).toBe(200);

    expect(await admin.revoke({ issuer: EMBEDDED_ISSUER_KEY, email: 'leaver@example.com' })).toEqual({
      revoked: 1,
    });
    // The gate reuses its decision within the cache window, then decides afresh.
    expect((await probe(tokens.access_token)).status).toBe(200);
    clockAhead += DECISION_CACHE_MS;
    expect((await probe(tokens.access_token)).status).toBe(403);
    // The access check decides afresh too: it never reuses a "no".
    expect(await (await checkAccess(tokens.access_token)).json()).toEqual({ hasAccess: false });
  });
});

describe('signing out', () => {
  it('ends the session at the site root without a confirmation click, and the refresh token dies with it', async () => {
    const browser = new Browser(origin);
    const tokens = await signIn(browser, config, 'marketer@example.com', 'marketer');
    const params = new URLSearchParams({
      id_token_hint: tokens.id_token ?? '',
      post_logout_redirect_uri: `${origin}/`,
      client_id: config.clientId,
      state: 'bye',
    });
    const page = await browser.request(`${config.authority}/session/end?${params}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    // The page submits itself (a script file, allowed by script-src 'self') for GEM's own client.
    expect(html).toContain('data-auto="yes"');
    expect(html).toMatch(/<script src="\/oidc\/assets\/sign-out\.[0-9a-f]+\.js" defer><\/script>/);
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const confirmed = await browser.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${origin}/?state=bye`);

    const renewed = await tokenRequest(browser, config, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    expect(renewed.status).toBe(400);
  });

  it('asks first when the request does not come from GEM (no id_token_hint)', async () => {
    const browser = new Browser(origin);
    await signIn(browser, config, 'marketer@example.com', 'marketer');
    const page = await browser.request(`${config.authority}/session/end`);
    expect(await page.text()).toContain('data-auto="no"');
  });
});

describe('several instances', () => {
  it('share keys and state through the database', async () => {
    const browser = new Browser(origin);
    const tokens = await signIn(browser, config, 'marketer@example.com', 'marketer');
    const other = await buildTestApp({ config: appConfig, database });
    try {
      const checked = await other.inject({
        method: 'GET',
        url: '/api/identity/check-app-access',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(checked.json()).toEqual({ hasAccess: true });
      const renewed = await other.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token ?? '',
          client_id: config.clientId,
        }).toString(),
      });
      expect(renewed.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
