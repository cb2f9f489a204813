import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, parseConfig } from './config';

describe('the configuration documents', () => {
  const repo = new URL('../../../', import.meta.url);
  const readme = readFileSync(new URL('README.md', repo), 'utf8');
  const example = readFileSync(new URL('.env.example', repo), 'utf8');

  it.each(Object.keys(envSchema.shape))('documents %s in README.md and .env.example', (name) => {
    expect(readme).toContain(`| \`${name}\``);
    expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
  });

  it('runs on embedded defaults with .env.example as shipped', () => {
    const values = Object.fromEntries(
      example
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    expect(parseConfig(values).auth.mode).toBe('embedded');
  });
});

describe('parseConfig', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = parseConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './data' });
    expect(config.bodyLimitBytes).toBe(1024 * 1024);
    expect(config.log.pretty).toBe(false);
    expect(config.migrationsDir).toMatch(/apps\/server\/drizzle$/);
    expect(config.webDistDir).toMatch(/apps\/web\/dist$/);
  });

  it('uses the PostgreSQL server when DATABASE_URL is set', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://gem@db.internal:5432/gem',
      GEM_DB_POOL_MAX: '20',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://gem@db.internal:5432/gem',
      poolMax: 20,
    });
  });

  it('treats an empty value as unset', () => {
    expect(parseConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(3000);
    expect(parseConfig({ DATABASE_URL: '' }).database.kind).toBe('pglite');
  });

  it('lists every bad field at once', () => {
    let error: unknown;
    try {
      parseConfig({
        PORT: 'eighty',
        NODE_ENV: 'staging',
        DATABASE_URL: 'mysql://x',
        GEM_TRUST_PROXY: 'maybe',
        GEM_BODY_LIMIT_BYTES: '-5',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const fields = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(fields.sort()).toEqual([
      'DATABASE_URL',
      'GEM_BODY_LIMIT_BYTES',
      'GEM_TRUST_PROXY',
      'NODE_ENV',
      'PORT',
    ]);
    expect((error as ConfigError).message).toContain('GEM_TRUST_PROXY: not proxy addresses: maybe');
  });

  it('reads booleans in the usual spellings', () => {
    expect(parseConfig({ GEM_LOG_PRETTY: 'yes' }).log.pretty).toBe(true);
    expect(parseConfig({ GEM_LOG_PRETTY: '0' }).log.pretty).toBe(false);
  });

  it('trusts a number of proxies or their addresses, never every hop', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ GEM_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(parseConfig({ GEM_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseConfig({ GEM_TRUST_PROXY: '10.0.0.0/8, 192.168.1.4' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.4',
    ]);
    for (const everyHop of ['true', 'yes']) {
      expect(() => parseConfig({ GEM_TRUST_PROXY: everyHop })).toThrow(
        /GEM_TRUST_PROXY: must be false, the number of proxies in front of GEM/,
      );
    }
  });

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

  it("refuses a brand checker on GEM's own origin (the frame could read the session)", () => {
    expect(() => parseConfig({ GEM_BRAND_CHECKER_URL: 'http://localhost:3000/brand' })).toThrow(
      /GEM_BRAND_CHECKER_URL: must be on another origin than GEM itself/,
    );
    expect(parseConfig({ GEM_BRAND_CHECKER_URL: 'https://brand.example.com/' }).brandCheckerUrl).toBe(
      'https://brand.example.com/',
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
  const problemsOf = (env: Record<string, string>) => {
    try {
      parseConfig(env);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
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
    const problems = problemsOf({
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
      problemsOf({ ...entra, GEM_OIDC_ISSUER: 'https://login.microsoftonline.com/common/v2.0' })[0],
    ).toContain('must name your tenant');
    expect(problemsOf({ GEM_OIDC_ISSUER: entra.GEM_OIDC_ISSUER }).sort()).toEqual([
      'GEM_OIDC_AUDIENCE: is required when GEM_OIDC_ISSUER is set',
      'GEM_OIDC_CLIENT_ID: is required when GEM_OIDC_ISSUER is set',
      'GEM_OIDC_SCOPE: is required when GEM_OIDC_ISSUER is set',
    ]);
    expect(problemsOf({ GEM_OIDC_CLIENT_ID: 'x' })[0]).toContain(
      'GEM_OIDC_CLIENT_ID: is set but GEM_OIDC_ISSUER is not',
    );
    expect(problemsOf({ ...entra, GEM_EMBEDDED_IDP: 'true' })[0]).toContain('GEM_EMBEDDED_IDP');
    expect(problemsOf({ ...entra, GEM_DEMO_ACCOUNTS: 'true' })[0]).toContain('GEM_DEMO_ACCOUNTS');
  });

  it('refuses the embedded provider in production unless asked for explicitly, without demo accounts', () => {
    expect(problemsOf({ NODE_ENV: 'production' })[0]).toContain(
      'GEM_OIDC_ISSUER: is required when NODE_ENV=production',
    );
    const explicit = parseConfig({ NODE_ENV: 'production', GEM_EMBEDDED_IDP: 'true' });
    expect(explicit.auth).toMatchObject({ mode: 'embedded', demoAccounts: false, embeddedExplicit: true });
    expect(
      problemsOf({ NODE_ENV: 'production', GEM_EMBEDDED_IDP: 'true', GEM_DEMO_ACCOUNTS: 'true' }),
    ).toEqual([
      'GEM_DEMO_ACCOUNTS: the demo accounts have published passwords and are refused when NODE_ENV=production',
    ]);
    expect(parseConfig({ NODE_ENV: 'production', ...entra }).auth.mode).toBe('external');
  });
});
