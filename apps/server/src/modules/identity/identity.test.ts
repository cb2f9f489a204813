import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import { testConfig } from '../../../test/test-config';
import type { Database } from '../../db/client';
import type { VerifiedIdentity } from '../../integrations/oidc/token-verifier';
import {
  AccessAdminError,
  createAccessAdmin,
  createIdentityService,
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

/** What GET /api/identity/check-app-access answers: a fresh decision. */
const check = async (svc: IdentityService, who: VerifiedIdentity) => ({
  hasAccess: (await svc.admitAfresh(who)).hasAccess,
});
/** What the gate in front of protected routes decides (reusing a recent decision). */
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
    // The explicit check decides afresh (and refreshes what the gate reuses).
    expect(await check(identity, person('bob'))).toEqual({ hasAccess: true });
    expect(await gate(identity, person('bob'))).toBe(true);

    await admin.revoke({ issuer: ISSUER, email: 'bob@contoso.example' });
    clock += 59_000;
    expect(await gate(identity, person('bob'))).toBe(true);
    clock += 1_000;
    expect(await gate(identity, person('bob'))).toBe(false);
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
