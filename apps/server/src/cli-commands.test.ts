import { fictionalSite, startSiteHost, type SiteHost } from '@gem/test-servers/site-host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferred } from '../test/deferred';
import { createTestDatabase } from '../test/test-database';
import { runCli, type CliIo } from './cli-commands';
import { externalAuth } from '../test/test-app';
import type { Config } from './config';
import { testConfig } from '../test/test-config';
import type { Database } from './db/client';
import { createLocalAccounts } from './integrations/oidc/embedded/local-accounts';
import { createIdentityService } from './modules/identity/identity.service';
import { createScheduler } from './lib/scheduler';
import { rowsOf } from './db/rows';
import { sql } from 'drizzle-orm';
import { COMPETITOR_CRAWL_TASK } from './modules/competitor-search/crawler/crawler';

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
  const code = await runCli(args.split(' ').filter(Boolean), {
    config,
    db: database.db,
    io,
    log: pino({ level: 'silent' }),
  });
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
    expect((await gem('access revoke piotr@example.com')).out).toContain('had no access grant');
    // The grant stays on record, revoked by the command line, and both changes are in the audit.
    const [row] = await rowsOf<{ revoked: boolean; reason: string; by: string | null }>(
      database.db,
      sql`select g.revoked_at is not null as revoked, g.revoke_reason as reason, g.revoked_by as by
          from app_access_grants g join users u on u.id = g.user_id where u.email = 'piotr@example.com'`,
    );
    expect(row).toEqual({ revoked: true, reason: 'Revoked with gem access revoke.', by: null });
    const audit = await rowsOf<{ action: string; actor: string | null; details: { via?: string } }>(
      database.db,
      sql`select action, actor_user_id as actor, details from audit_events
          where target = 'piotr@example.com' order by id`,
    );
    expect(audit.map((a) => [a.action, a.actor, a.details.via])).toEqual([
      ['access.granted', null, 'command-line'],
      ['access.revoked', null, 'command-line'],
    ]);
    // Granted again: given back, and audited again.
    expect((await gem('access grant piotr@example.com')).out).toContain('may now use GEM');
    expect((await gem('access list')).out).toContain('piotr@example.com');
    expect((await gem('access grant nobody@example.com')).code).toBe(1);
  });

  it('with an external issuer, grants people GEM has seen sign in, and refuses local accounts', async () => {
    const config = testConfig({ auth: externalAuth('https://login.example/tenant/v2.0') });
    expect((await gem('access grant ola@contoso.example', { config })).err).toContain(
      'has signed in to GEM yet',
    );
    await createIdentityService({ db: database.db, auth: config.auth, access: config.access }).admit({
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

describe('gem competitors', () => {
  let site: SiteHost;
  beforeAll(async () => {
    site = await startSiteHost();
    site.load(fictionalSite(site.origin, '/pl/', 3));
    site.set('/druga/', { status: 500, body: 'awaria' });
  });
  afterAll(() => site.close());

  const withSite = () => {
    const base = testConfig();
    return testConfig({
      competitors: {
        ...base.competitors,
        list: [
          { key: 'fikcja', name: 'Fikcyjna Firma', site: site.url('/pl/') },
          { key: 'druga', name: 'Druga Firma', site: site.url('/druga/') },
        ],
        crawlDelayMs: 0,
        allowPrivateHosts: true,
      },
    });
  };

  it('crawls one competitor or all, and shows pages, the last crawl and its error', async () => {
    const config = withSite();
    const one = await gem('competitors crawl fikcja', { config });
    expect(one).toMatchObject({ code: 0 });
    expect(one.out).toContain('fikcja: 4 pages stored, 0 unchanged, 0 skipped, 0 failed');
    expect(site.requests('/druga/')).toHaveLength(0);

    const all = await gem('competitors crawl', { config });
    expect(all.code).toBe(1);
    expect(all.out).toContain('druga: 0 pages stored, 0 unchanged, 0 skipped, 1 failed');
    expect(all.out).toMatch(
      /problem: 1 page could not be read: http:\/\/127\.0\.0\.1:\d+\/druga\/: HTTP 500/,
    );

    const status = await gem('competitors status', { config });
    expect(status.code).toBe(0);
    expect(status.out).toMatch(
      /fikcja\s+http:\/\/127\.0\.0\.1:\d+\/pl\/\s+4\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+none/,
    );
    expect(status.out).toMatch(/druga\s+\S+\s+0\s+\S+ \S+\s+yes, below/);
    expect(status.out).toMatch(/^druga: 1 page could not be read/m);
    expect(status.out).toContain('GEM_COMPETITORS_CRAWL=false');

    expect((await gem('competitors crawl nobody', { config })).err).toContain('The keys: fikcja, druga.');
  });

  it('does not crawl while a server holds the crawl', async () => {
    const config = withSite();
    const server = createScheduler({ db: database.db, log: pino({ level: 'silent' }) });
    const started = deferred<void>();
    const release = deferred<void>();
    server.every({
      name: COMPETITOR_CRAWL_TASK,
      intervalMs: 60_000,
      leaseMs: 60_000,
      run: async () => {
        started.resolve();
        await release.promise;
      },
    });
    const running = server.runNow(COMPETITOR_CRAWL_TASK, { force: true });
    await started.promise;
    const refused = await gem('competitors crawl', { config });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('A GEM server is crawling the competitors right now');
    release.resolve();
    await running;
    await server.stop();
  });
});
