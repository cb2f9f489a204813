import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database';
import { runCli, type CliIo } from './cli-commands';
import { externalAuth } from '../test/test-app';
import type { Config } from './config';
import { testConfig } from '../test/test-config';
import type { Database } from './db/client';
import { createLocalAccounts } from './integrations/oidc/embedded/local-accounts';
import { createIdentityService } from './modules/identity/identity.service';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function gem(
  args: string,
  { config = testConfig(), password = '' }: { config?: Config; password?: string } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { readPassword: async () => password, out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await runCli(args.split(' ').filter(Boolean), { config, db: database.db, io });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the gem command-line tool', () => {
  it('adds, lists and removes local accounts; the password never comes from the arguments', async () => {
    const added = await gem('accounts add Ewa@Example.com --name Ewa', { password: 'ewa-password-1' });
    expect(added).toMatchObject({ code: 0 });
    expect(added.out).toContain('Added the local account ewa@example.com');
    expect(
      await createLocalAccounts(database.db).authenticate('ewa@example.com', 'ewa-password-1'),
    ).toBeTruthy();

    expect((await gem('accounts add ewa@example.com', { password: 'another-pass' })).err).toContain(
      'already exists',
    );
    expect((await gem('accounts add short@example.com', { password: 'short' })).err).toContain('at least 8');
    expect((await gem('accounts list')).out).toMatch(/ewa@example\.com\s+Ewa\s+\S+ \S+\s+no/);

    expect((await gem('accounts remove ewa@example.com')).code).toBe(0);
    expect((await gem('accounts remove ewa@example.com')).code).toBe(1);
  });

  it('grants, lists and revokes app access for local accounts', async () => {
    await gem('accounts add piotr@example.com', { password: 'piotr-password' });
    expect((await gem('access grant piotr@example.com')).out).toContain('may now use GEM');
    expect((await gem('access grant piotr@example.com')).out).toContain('already has access');
    expect((await gem('access list')).out).toContain('piotr@example.com');
    expect((await gem('accounts list')).out).toMatch(/piotr@example\.com.*yes/);
    expect((await gem('access revoke piotr@example.com')).out).toContain('within 60 seconds');
    expect((await gem('access list')).out).not.toContain('piotr@example.com');
    expect((await gem('access grant nobody@example.com')).code).toBe(1);
  });

  it('with an external issuer, grants people GEM has seen sign in, and refuses local accounts', async () => {
    const config = testConfig({ auth: externalAuth('https://login.example/tenant/v2.0') });
    expect((await gem('access grant ola@contoso.example', { config })).err).toContain(
      'has signed in to GEM yet',
    );
    await createIdentityService({ db: database.db, auth: config.auth, access: config.access }).admitAfresh({
      issuer: config.auth.issuer,
      subject: 'ola-oid',
      email: 'ola@contoso.example',
      name: 'Ola',
      roles: [],
      scopes: [],
    });
    expect((await gem('access grant ola@contoso.example', { config })).code).toBe(0);
    expect((await gem('access list', { config })).out).toContain('ola@contoso.example');
    expect((await gem('accounts add x@example.com', { config, password: 'password-1' })).err).toContain(
      'local accounts are not used',
    );
  });

  it('explains its usage', async () => {
    expect((await gem('')).code).toBe(2);
    expect((await gem('--help')).out).toContain('accounts add <email>');
    expect((await gem('access frobnicate x')).code).toBe(2);
  });
});
