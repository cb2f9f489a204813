import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import { testConfig } from '../../../test/test-config';
import type { Database } from '../../db/client';
import { users } from '../../db/schema/index';
import type { VerifiedIdentity } from '../../integrations/oidc/token-verifier';
import {
  AccessAdminError,
  createAccessAdmin,
  createIdentityService,
  LAST_SEEN_RESOLUTION_MS,
  type IdentityService,
} from './identity.service';

const ISSUER = 'https://login.example/tenant/v2.0';
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const person = (subject: string, extra: Partial<VerifiedIdentity> = {}): VerifiedIdentity => ({
  issuer: ISSUER,
  subject,
  email: `${subject}@contoso.example`,
  name: subject,
  roles: [],
  scopes: ['access_as_user'],
  ...extra,
});

function service(access: Partial<ReturnType<typeof testConfig>['access']> = {}, now = () => Date.now()) {
  const config = testConfig();
  return createIdentityService({
    db: database.db,
    auth: config.auth,
    access: { ...config.access, ...access },
    now,
  });
}

/** What GET /api/identity/check-app-access answers (a "yes" reused, a "no" decided afresh). */
const check = async (svc: IdentityService, who: VerifiedIdentity) => ({
  hasAccess: (await svc.admit(who)).hasAccess,
});
/** What the gate in front of protected routes decides (the same rule). */
const gate = async (svc: IdentityService, who: VerifiedIdentity) => (await svc.admit(who)).hasAccess;

describe('hasAccess', () => {
  it('is false for a signed-in user on no list', async () => {
    expect(await check(service(), person('nobody'))).toEqual({ hasAccess: false });
  });

  it('is true for an allowed e-mail domain (exact match, not a look-alike)', async () => {
    const identity = service({ allowedDomains: ['contoso.example'] });
    expect(await check(identity, person('d1'))).toEqual({ hasAccess: true });
    expect(await check(identity, person('d2', { email: 'd2@evilcontoso.example' }))).toEqual({
      hasAccess: false,
    });
    expect(await check(identity, person('d3', { email: 'd3@contoso.example.evil' }))).toEqual({
      hasAccess: false,
    });
    expect(await check(identity, person('d4', { email: undefined }))).toEqual({ hasAccess: false });
  });

  it('is true for a token carrying a required role', async () => {
    const identity = service({ requiredRoles: ['GEM.User'] });
    expect(await check(identity, person('r1', { roles: ['GEM.User'] }))).toEqual({ hasAccess: true });
    expect(await check(identity, person('r2', { roles: ['Other'] }))).toEqual({ hasAccess: false });
  });

  it('follows the allow-list, keyed by issuer and subject, not by e-mail', async () => {
    const admin = createAccessAdmin({ db: database.db });
    const identity = service();
    await check(identity, person('ann'));
    await admin.grant({ issuer: ISSUER, email: 'ANN@contoso.example' });
    expect(await check(identity, person('ann'))).toEqual({ hasAccess: true });
    // Same e-mail, another subject or another issuer: not the same person.
    expect(await check(identity, person('impostor', { email: 'ann@contoso.example' }))).toEqual({
      hasAccess: false,
    });
    expect(await check(identity, person('ann', { issuer: 'https://other.example' }))).toEqual({
      hasAccess: false,
    });
  });

  it('reuses a decision for at most the cache window, so a revoke lands within it', async () => {
    let clock = 1_000_000;
    const identity = service({ decisionCacheMs: 60_000 }, () => clock);
    const admin = createAccessAdmin({ db: database.db });
    await check(identity, person('bob'));
    await admin.grant({ issuer: ISSUER, email: 'bob@contoso.example' });
    // The check does not reuse a "no": it decides afresh (and refreshes what the gate reuses).
    expect(await check(identity, person('bob'))).toEqual({ hasAccess: true });
    expect(await gate(identity, person('bob'))).toBe(true);

    await admin.revoke({ issuer: ISSUER, email: 'bob@contoso.example' });
    clock += 59_000;
    expect(await gate(identity, person('bob'))).toBe(true);
    clock += 1_000;
    expect(await gate(identity, person('bob'))).toBe(false);
  });
});

/** The user's row as stored, with the transaction that last wrote it (xmin). */
async function stored(subject: string) {
  const [row] = await database.db
    .select({
      id: users.id,
      email: users.email,
      name: users.displayName,
      lastSeenAt: users.lastSeenAt,
      writtenBy: sql<string>`xmin::text`,
    })
    .from(users)
    .where(and(eq(users.issuer, ISSUER), eq(users.subject, subject)));
  return row;
}

describe('the access check', () => {
  it('reuses a "yes" until the window ends, so a revoke on any instance lands within it', async () => {
    let clock = 5_000_000;
    const admin = createAccessAdmin({ db: database.db });
    const here = service({ decisionCacheMs: 60_000 }, () => clock);
    const there = service({ decisionCacheMs: 60_000 }, () => clock);
    await check(here, person('erin'));
    await admin.grant({ issuer: ISSUER, email: 'erin@contoso.example' });
    expect(await check(here, person('erin'))).toEqual({ hasAccess: true });
    expect(await check(there, person('erin'))).toEqual({ hasAccess: true });

    // Revoked by the access tool (another process): both instances answer from memory a while.
    await admin.revoke({ issuer: ISSUER, email: 'erin@contoso.example' });
    clock += 59_999;
    expect(await check(here, person('erin'))).toEqual({ hasAccess: true });
    expect(await check(there, person('erin'))).toEqual({ hasAccess: true });
    clock += 1;
    expect(await check(here, person('erin'))).toEqual({ hasAccess: false });
    expect(await check(there, person('erin'))).toEqual({ hasAccess: false });
    expect(await gate(here, person('erin'))).toBe(false);
  });

  it('lets a newly granted user in at their next request, on any instance', async () => {
    const clock = 7_000_000;
    const admin = createAccessAdmin({ db: database.db });
    const here = service({ decisionCacheMs: 60_000 }, () => clock);
    const there = service({ decisionCacheMs: 60_000 }, () => clock);
    expect(await check(here, person('finn'))).toEqual({ hasAccess: false });
    expect(await gate(here, person('finn'))).toBe(false);
    expect(await check(there, person('finn'))).toEqual({ hasAccess: false });
    await admin.grant({ issuer: ISSUER, email: 'finn@contoso.example' });
    // The clock has not moved: the Access Denied page asks again (on the other instance), and
    // the next call lands on the first one.
    expect(await check(there, person('finn'))).toEqual({ hasAccess: true });
    expect(await gate(here, person('finn'))).toBe(true);
    expect(await check(here, person('finn'))).toEqual({ hasAccess: true });
  });

  it('decides afresh when the token names another role, e-mail or name', async () => {
    const clock = 8_000_000;
    const identity = service({ requiredRoles: ['GEM.User'], decisionCacheMs: 60_000 }, () => clock);
    expect(await gate(identity, person('gus'))).toBe(false);
    expect(await gate(identity, person('gus', { roles: ['GEM.User'] }))).toBe(true);
    await check(identity, person('gus', { email: 'gus@fabrikam.example', name: 'Gus G' }));
    expect(await stored('gus')).toMatchObject({ email: 'gus@fabrikam.example', name: 'Gus G' });
  });
});

describe('recording visits', () => {
  it('writes the user row at most once a minute, and not at all on a read in between', async () => {
    let clock = Date.parse('2026-01-01T10:00:00Z');
    // Decisions are not reused here, so every call goes to the database.
    const identity = service({ decisionCacheMs: 0 }, () => clock);
    const first = await identity.admit(person('hana'));
    const created = await stored('hana');
    expect(created).toMatchObject({ id: first.userId, lastSeenAt: new Date(clock) });

    for (const step of [1_000, 30_000, 28_999]) {
      clock += step;
      expect((await identity.admit(person('hana'))).userId).toBe(first.userId);
      expect(await identity.admit(person('hana'))).toEqual(first);
    }
    // Nothing written: the same row version, lastSeenAt as it was.
    expect(await stored('hana')).toEqual(created);

    clock += 1_001;
    expect(clock - (created?.lastSeenAt?.getTime() ?? 0)).toBeGreaterThan(LAST_SEEN_RESOLUTION_MS);
    expect((await identity.admit(person('hana'))).userId).toBe(first.userId);
    const seen = await stored('hana');
    expect(seen?.lastSeenAt).toEqual(new Date(clock));
    expect(seen?.writtenBy).not.toBe(created?.writtenBy);

    // A changed name is written at once; a token without e-mail keeps the stored one.
    clock += 1_000;
    await identity.admit(person('hana', { name: 'Hana H', email: undefined }));
    expect(await stored('hana')).toMatchObject({
      email: 'hana@contoso.example',
      name: 'Hana H',
      lastSeenAt: new Date(clock),
    });
  });

  it('gives two instances seeing a new user at once the one row', async () => {
    const a = service();
    const b = service();
    const [one, two] = await Promise.all([a.admit(person('ivy')), b.admit(person('ivy'))]);
    expect(one.userId).toBe(two.userId);
    expect((await stored('ivy'))?.id).toBe(one.userId);
  });

  it('asks the database once for concurrent requests of one user', async () => {
    let clock = 9_000_000;
    let statements = 0;
    const db = new Proxy(database.db, {
      get(target, key, receiver) {
        if (key !== 'execute') return Reflect.get(target, key, receiver) as unknown;
        return (...args: Parameters<Database['db']['execute']>) => {
          statements += 1;
          return target.execute(...args);
        };
      },
    });
    const config = testConfig();
    const identity = createIdentityService({
      db,
      auth: config.auth,
      access: { ...config.access, allowedDomains: ['contoso.example'], decisionCacheMs: 60_000 },
      now: () => clock,
    });
    await identity.admit(person('jay'));
    const before = await stored('jay');
    clock += 2 * LAST_SEEN_RESOLUTION_MS;
    statements = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => identity.admit(person('jay'))));
    expect(statements).toBe(1);
    expect(new Set(answers.map((a) => a.userId))).toEqual(new Set([before?.id]));
    expect((await stored('jay'))?.lastSeenAt).toEqual(new Date(clock));
    // A "yes", reused from memory by the gate and the check alike.
    expect(answers[0]?.hasAccess).toBe(true);
    await identity.admit(person('jay'));
    await identity.admit(person('jay'));
    expect(statements).toBe(1);
  });
});

describe('the access admin', () => {
  it('refuses to grant someone GEM has never seen, and lists grants', async () => {
    const admin = createAccessAdmin({ db: database.db });
    await expect(admin.grant({ issuer: ISSUER, email: 'stranger@contoso.example' })).rejects.toThrow(
      AccessAdminError,
    );
    await check(service(), person('carol', { name: 'Carol C' }));
    expect(await admin.grant({ issuer: ISSUER, email: 'carol@contoso.example' })).toEqual({
      alreadyGranted: false,
    });
    expect(await admin.grant({ issuer: ISSUER, email: 'carol@contoso.example' })).toEqual({
      alreadyGranted: true,
    });
    const list = await admin.list();
    expect(list.find((e) => e.subject === 'carol')).toMatchObject({
      email: 'carol@contoso.example',
      name: 'Carol C',
    });
  });

  it('will not guess between two accounts that used one e-mail', async () => {
    const admin = createAccessAdmin({ db: database.db });
    await check(service(), person('old-dave', { email: 'dave@contoso.example' }));
    await check(service(), person('new-dave', { email: 'dave@contoso.example' }));
    await expect(admin.grant({ issuer: ISSUER, email: 'dave@contoso.example' })).rejects.toThrow(
      /will not guess/,
    );
  });
});
