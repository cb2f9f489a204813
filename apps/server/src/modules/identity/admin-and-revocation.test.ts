import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import { testConfig } from '../../../test/test-config';
import type { Database } from '../../db/client';
import { appAccessGrants, auditEvents, users } from '../../db/schema/index';
import type { VerifiedIdentity } from '../../integrations/oidc/token-verifier';
import { createAccessAdmin, createIdentityService } from './identity.service';

/**
 * Issue 30: who is an administrator, an administrator's revocation shutting out someone a
 * domain or a role lets in, and every access decision that changes written to the audit log.
 */

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
    access: { ...config.access, adminEmails: [], adminRoles: [], ...access },
    now,
  });
}

const userIdOf = async (subject: string) => {
  const [row] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.issuer, ISSUER), eq(users.subject, subject)));
  return row!.id;
};

const changesOf = async (userId: string) =>
  (
    await database.db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetUserId, userId), eq(auditEvents.action, 'access.changed')))
      .orderBy(desc(auditEvents.id))
  ).map((e) => e.details);

describe('administrators', () => {
  it('are named by e-mail (any case) or by a role of the token, and always get in', async () => {
    const identity = service({ adminEmails: ['boss@contoso.example'], adminRoles: ['GEM.Admin'] });
    expect(await identity.admit(person('boss', { email: 'Boss@Contoso.example' }))).toMatchObject({
      hasAccess: true,
      isAdmin: true,
    });
    expect(await identity.admit(person('ops', { roles: ['GEM.Admin'] }))).toMatchObject({
      hasAccess: true,
      isAdmin: true,
    });
    // A user on the allow-list is no administrator; nor is a look-alike e-mail.
    await createAccessAdmin({ db: database.db }).grant({
      issuer: ISSUER,
      subject: 'listed',
      email: 'listed@contoso.example',
    });
    expect(await identity.admit(person('listed'))).toMatchObject({ hasAccess: true, isAdmin: false });
    expect(await identity.admit(person('boss2', { email: 'boss@contoso.example.evil' }))).toMatchObject({
      hasAccess: false,
      isAdmin: false,
    });
  });
});

describe('a revocation by an administrator', () => {
  it('shuts out someone their domain lets in, until access is granted again', async () => {
    let now = Date.now();
    const identity = service({ allowedDomains: ['contoso.example'] }, () => now);
    expect((await identity.admit(person('dora'))).hasAccess).toBe(true);
    const userId = await userIdOf('dora');
    await database.db
      .insert(appAccessGrants)
      .values({ userId, revokedAt: new Date(), revokeReason: 'left the team' })
      .onConflictDoUpdate({ target: appAccessGrants.userId, set: { revokedAt: new Date() } });
    // The "yes" is reused for up to a minute, then the revocation holds.
    expect((await identity.admit(person('dora'))).hasAccess).toBe(true);
    now += 60_001;
    expect((await identity.admit(person('dora'))).hasAccess).toBe(false);
    // The command line's grant gives it back.
    await createAccessAdmin({ db: database.db }).grant({ issuer: ISSUER, email: 'dora@contoso.example' });
    expect((await identity.admit(person('dora'))).hasAccess).toBe(true);
    // The CLI's list shows only grants in force.
    const listed = (await createAccessAdmin({ db: database.db }).list()).map((e) => e.email);
    expect(listed).toContain('dora@contoso.example');
  });
});

describe('access decisions', () => {
  it('are written to the audit log when they change, once per change', async () => {
    let now = Date.now();
    const identity = service({}, () => now);
    expect((await identity.admit(person('eve'))).hasAccess).toBe(false);
    expect((await identity.admit(person('eve'))).hasAccess).toBe(false);
    const userId = await userIdOf('eve');
    expect(await changesOf(userId)).toEqual([{ hasAccess: false, rule: null }]);

    await createAccessAdmin({ db: database.db }).grant({ issuer: ISSUER, email: 'eve@contoso.example' });
    expect((await identity.admit(person('eve'))).hasAccess).toBe(true);
    now += 60_001;
    expect((await identity.admit(person('eve'))).hasAccess).toBe(true);
    expect(await changesOf(userId)).toEqual([
      { hasAccess: true, rule: 'list' },
      { hasAccess: false, rule: null },
    ]);
  });

  it('are recorded once when two instances decide the same change at once', async () => {
    const [a, b] = [service(), service()];
    await Promise.all([a.admit(person('twin')), b.admit(person('twin'))]);
    expect(await changesOf(await userIdOf('twin'))).toHaveLength(1);
  });

  it('keep the roles of the latest token on the user, for the access list', async () => {
    const identity = service({ requiredRoles: ['GEM.User'] });
    await identity.admit(person('rolf', { roles: ['GEM.User', 'Other'] }));
    const [row] = await database.db
      .select({ roles: users.roles })
      .from(users)
      .where(eq(users.subject, 'rolf'));
    expect(row!.roles).toEqual(['GEM.User', 'Other']);
  });
});
