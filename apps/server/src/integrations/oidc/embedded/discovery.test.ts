import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/test-app';
import { testConfig } from '../../../../test/test-config';
import { createTestDatabase } from '../../../../test/test-database';
import type { App } from '../../../app';
import type { Database } from '../../../db/client';

/**
 * The embedded provider emits URLs on GEM's configured origin only: a request's Host (or,
 * behind a trusted proxy, X-Forwarded-Host and X-Forwarded-Proto) cannot move them elsewhere.
 */

// Behind a proxy that ends TLS (GEM_TRUST_PROXY); without one GEM's address is plain http.
const ORIGIN = 'https://gem.example.com';
const DIRECT_ORIGIN = 'http://gem.example.com:8080';

let database: Database;
const apps: App[] = [];

async function appBehind(trustProxy: false | number) {
  const base = testConfig();
  const origin = trustProxy === false ? DIRECT_ORIGIN : ORIGIN;
  const app = await buildTestApp({
    config: testConfig({
      trustProxy,
      auth: { ...base.auth, publicUrl: origin, issuer: `${origin}/oidc`, audience: `${origin}/api` },
    }),
    database,
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.close();
});

/** Every URL in a discovery document, by field. */
function urlsOf(doc: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(doc).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && /^https?:\/\//.test(entry[1]),
    ),
  );
}

async function discovery(app: App, headers: Record<string, string>) {
  const res = await app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration', headers });
  expect(res.statusCode).toBe(200);
  return { doc: res.json() as Record<string, unknown>, res };
}

describe('the discovery document', () => {
  it('names endpoints on the configured origin, whatever Host says, and is not cached', async () => {
    const app = await appBehind(false);
    const { doc, res } = await discovery(app, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    expect(doc.issuer).toBe(`${DIRECT_ORIGIN}/oidc`);
    const urls = urlsOf(doc);
    expect(Object.keys(urls)).toEqual(
      expect.arrayContaining([
        'authorization_endpoint',
        'token_endpoint',
        'jwks_uri',
        'end_session_endpoint',
      ]),
    );
    for (const [field, url] of Object.entries(urls)) expect(new URL(url).origin, field).toBe(DIRECT_ORIGIN);
    expect(JSON.stringify(doc)).not.toContain('evil.example');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto from a trusted proxy too', async () => {
    const app = await appBehind(1);
    const { doc } = await discovery(app, {
      host: 'internal-gem:3000',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
      'x-forwarded-for': '203.0.113.7',
    });
    for (const [field, url] of Object.entries(urlsOf(doc))) expect(new URL(url).origin, field).toBe(ORIGIN);
    expect(JSON.stringify(doc)).not.toMatch(/evil\.example|internal-gem/);
  });

  it('keeps redirects on GEM and its cookies Secure on an https origin, whatever the proxy says', async () => {
    const app = await appBehind(1);
    const res = await app.inject({
      method: 'GET',
      url: '/oidc/auth?client_id=gem-web&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fgem.example.com%2F&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(res.statusCode).toBe(303);
    const location = String(res.headers.location);
    expect(location.startsWith('/oidc/interaction/') || location.startsWith(`${ORIGIN}/`)).toBe(true);
    expect(location).not.toContain('evil.example');
    // The interaction cookie is Secure, as the configured origin is https, whatever the proxy said.
    expect(String(res.headers['set-cookie'])).toMatch(/secure/i);
  });
});
