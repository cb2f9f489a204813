import { visualBrandCheckerSettingsSchema } from '@gem/contracts/visual-brand-checker';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { ConfigError, parseConfig, type Config } from '../../config';
import { testConfig } from '../../../test/test-config';
import type { Database } from '../../db/client';

let issuer: OidcIssuer;
let database: Database;

function config(brandCheckerUrl: string | undefined): Config {
  const base = testConfig();
  return testConfig({
    brandCheckerUrl,
    // Access by e-mail domain, so the test needs no allow-list entry.
    access: { ...base.access, allowedDomains: ['brand.example'] },
    auth: externalAuth(issuer.issuer),
  });
}

async function askAsPermittedUser(brandCheckerUrl: string | undefined) {
  const app = await buildTestApp({ config: config(brandCheckerUrl), database });
  try {
    const token = await issuer.sign(accessClaims('brand-user', 'brand.example'));
    const res = await app.inject({
      method: 'GET',
      url: '/api/visual-brand-checker',
      headers: { authorization: `Bearer ${token}` },
    });
    // The policy of the pages, which show the checker in a frame.
    const page = await app.inject({ method: 'GET', url: '/' });
    return { res, csp: String(page.headers['content-security-policy']) };
  } finally {
    await app.close();
  }
}

beforeAll(async () => {
  issuer = await startOidcIssuer();
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  await issuer.close();
});

describe('visual brand checker', () => {
  it('gives the configured page, and lets frames come from its origin only', async () => {
    const { res, csp } = await askAsPermittedUser('https://brand.example.com/check?team=marketing');
    expect(res.statusCode).toBe(200);
    expect(visualBrandCheckerSettingsSchema.parse(res.json()).url).toBe(
      'https://brand.example.com/check?team=marketing',
    );
    expect(csp).toMatch(/frame-src https:\/\/brand\.example\.com(;|$)/);
  });

  it('says when none is configured, and then allows no frames at all', async () => {
    const { res, csp } = await askAsPermittedUser(undefined);
    expect(res.json()).toEqual({ url: null });
    expect(csp).toContain("frame-src 'none'");
  });

  it('accepts only an http or https address in GEM_BRAND_CHECKER_URL', () => {
    for (const bad of ['javascript:alert(1)', 'ftp://brand.example.com/', 'not a url']) {
      expect(() => parseConfig({ GEM_BRAND_CHECKER_URL: bad })).toThrow(ConfigError);
    }
    expect(parseConfig({ GEM_BRAND_CHECKER_URL: 'https://brand.example.com/' }).brandCheckerUrl).toBe(
      'https://brand.example.com/',
    );
  });
});
