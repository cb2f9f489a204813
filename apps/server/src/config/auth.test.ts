import { describe, expect, it } from 'vitest';
import { configProblems } from '../../test/test-config';
import { parseConfig } from './index';

describe('the embedded provider and the address GEM is reached at', () => {
  it('listens on this machine only unless told otherwise, and only then offers the demo accounts', () => {
    const local = parseConfig({});
    expect(local.host).toBe('localhost');
    expect(local.auth).toMatchObject({ publicUrl: 'http://localhost:3000', demoAccounts: true });
    expect(parseConfig({ GEM_HOST: '127.0.0.1' }).auth.demoAccounts).toBe(true);
    expect(parseConfig({ GEM_HOST: '0.0.0.0' }).auth.demoAccounts).toBe(false);
    expect(parseConfig({ GEM_HOST: '0.0.0.0', GEM_DEMO_ACCOUNTS: 'true' }).auth.demoAccounts).toBe(true);
  });

  it('asks to trust the TLS proxy when the embedded provider is served over https', () => {
    expect(() => parseConfig({ GEM_PUBLIC_URL: 'https://gem.example.com' })).toThrow(
      /GEM_TRUST_PROXY: GEM_PUBLIC_URL is https/,
    );
    expect(parseConfig({ GEM_PUBLIC_URL: 'https://gem.example.com', GEM_TRUST_PROXY: '1' }).trustProxy).toBe(
      1,
    );
  });
});

describe('sign-in and access settings', () => {
  const entra = {
    GEM_OIDC_ISSUER: 'https://login.microsoftonline.com/2f3c9d8e-1111-2222-3333-444455556666/v2.0',
    GEM_OIDC_CLIENT_ID: '6a1b2c3d-aaaa-bbbb-cccc-ddddeeeeffff',
    GEM_OIDC_SCOPE: 'api://6a1b2c3d-aaaa-bbbb-cccc-ddddeeeeffff/access_as_user',
    GEM_OIDC_AUDIENCE: '6a1b2c3d-aaaa-bbbb-cccc-ddddeeeeffff',
  };

  it('runs the embedded provider with nothing set, at the public URL', () => {
    const { auth, access } = parseConfig({});
    expect(auth).toMatchObject({
      mode: 'embedded',
      publicUrl: 'http://localhost:3000',
      issuer: 'http://localhost:3000/oidc',
      clientId: 'gem-web',
      scope: 'gem.api',
      audience: 'http://localhost:3000/api',
      demoAccounts: true,
    });
    expect(access.contacts).toHaveLength(3);
    expect(access.decisionCacheMs).toBe(60_000);
    expect(parseConfig({ GEM_HOST: '127.0.0.1', PORT: '4000' }).auth.issuer).toBe(
      'http://127.0.0.1:4000/oidc',
    );
    expect(
      parseConfig({ GEM_PUBLIC_URL: 'https://gem.example.com/', GEM_TRUST_PROXY: '1' }).auth.issuer,
    ).toBe('https://gem.example.com/oidc');
  });

  it('uses an external issuer when one is set, and never the embedded provider', () => {
    const { auth } = parseConfig({ ...entra, GEM_OIDC_REQUIRED_SCOPE: 'access_as_user' });
    expect(auth).toMatchObject({
      mode: 'external',
      ...{ issuer: entra.GEM_OIDC_ISSUER },
      requiredScope: 'access_as_user',
    });
    expect(auth.demoAccounts).toBe(false);
  });

  it('reads the access lists', () => {
    const { access } = parseConfig({
      GEM_ACCESS_CONTACTS: 'a@example.com, b@example.com,c@example.com',
      GEM_ACCESS_ALLOWED_DOMAINS: 'Contoso.com, marketing.contoso.com',
      GEM_ACCESS_REQUIRED_ROLES: 'GEM.User,GEM.Admin',
    });
    expect(access.contacts).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    expect(access.allowedDomains).toEqual(['contoso.com', 'marketing.contoso.com']);
    expect(access.requiredRoles).toEqual(['GEM.User', 'GEM.Admin']);
  });

  it('lists every bad sign-in setting', () => {
    const problems = configProblems({
      GEM_OIDC_ISSUER: 'http://idp.example.com',
      GEM_PUBLIC_URL: 'https://gem.example.com/app',
      GEM_ACCESS_CONTACTS: 'a@example.com,b@example.com',
      GEM_ACCESS_ALLOWED_DOMAINS: 'contoso.com,not a domain',
      GEM_ACCESS_REQUIRED_ROLES: 'ok,bad role',
      GEM_EMBEDDED_IDP: 'sometimes',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'GEM_ACCESS_ALLOWED_DOMAINS',
      'GEM_ACCESS_CONTACTS',
      'GEM_ACCESS_REQUIRED_ROLES',
      'GEM_EMBEDDED_IDP',
      'GEM_OIDC_ISSUER',
      'GEM_PUBLIC_URL',
    ]);
    expect(problems.join('\n')).toContain('must use https://');
  });

  it("refuses Entra's shared tenants, and half an external set-up", () => {
    expect(
      configProblems({ ...entra, GEM_OIDC_ISSUER: 'https://login.microsoftonline.com/common/v2.0' })[0],
    ).toContain('must name your tenant');
    expect(configProblems({ GEM_OIDC_ISSUER: entra.GEM_OIDC_ISSUER }).sort()).toEqual([
      'GEM_OIDC_AUDIENCE: is required when GEM_OIDC_ISSUER is set',
      'GEM_OIDC_CLIENT_ID: is required when GEM_OIDC_ISSUER is set',
      'GEM_OIDC_SCOPE: is required when GEM_OIDC_ISSUER is set',
    ]);
    expect(configProblems({ GEM_OIDC_CLIENT_ID: 'x' })[0]).toContain(
      'GEM_OIDC_CLIENT_ID: is set but GEM_OIDC_ISSUER is not',
    );
    expect(configProblems({ ...entra, GEM_EMBEDDED_IDP: 'true' })[0]).toContain('GEM_EMBEDDED_IDP');
    expect(configProblems({ ...entra, GEM_DEMO_ACCOUNTS: 'true' })[0]).toContain('GEM_DEMO_ACCOUNTS');
  });

  it('refuses the embedded provider in production unless asked for explicitly, without demo accounts', () => {
    expect(configProblems({ NODE_ENV: 'production' })[0]).toContain(
      'GEM_OIDC_ISSUER: is required when NODE_ENV=production',
    );
    const explicit = parseConfig({ NODE_ENV: 'production', GEM_EMBEDDED_IDP: 'true' });
    expect(explicit.auth).toMatchObject({ mode: 'embedded', demoAccounts: false, embeddedExplicit: true });
    expect(
      configProblems({ NODE_ENV: 'production', GEM_EMBEDDED_IDP: 'true', GEM_DEMO_ACCOUNTS: 'true' }),
    ).toEqual([
      'GEM_DEMO_ACCOUNTS: the demo accounts have published passwords and are refused when NODE_ENV=production',
    ]);
    expect(parseConfig({ NODE_ENV: 'production', ...entra }).auth.mode).toBe('external');
  });
});
