import { adminPaths } from '@gem/contracts/admin-paths';
import type { AccessListResponse, AccessRequestsResponse } from '@gem/contracts/admin-access';
import { aiStatusPath } from '@gem/contracts/ai-status';
import { identityPaths } from '@gem/contracts/identity-paths';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { accessRequests, auditEvents, users } from '../../db/schema/index';

/**
 * Issue 30, the admin area's access: the access list, grants and revocations with a reason,
 * access requests from the Access Denied page, and every change in the audit log with its
 * administrator. Two instances share one database, each with its own clock: a revocation made on
 * one holds on it at once, and on the other once its remembered decision has run out.
 */

let issuer: OidcIssuer;
let database: Database;
let appA: App;
let appB: App;
let clock = Date.UTC(2026, 10, 20, 9, 0, 0);
const now = () => clock;

function config(issuerUrl: string): Config {
  const base = testConfig();
  return testConfig({
    auth: externalAuth(issuerUrl),
    access: {
      ...base.access,
      allowedDomains: ['contoso.example'],
      requiredRoles: [],
      adminEmails: ['admin@example.com'],
      adminRoles: ['GEM.Admin'],
      decisionCacheMs: 60_000,
    },
  });
}

beforeAll(async () => {
  issuer = await startOidcIssuer();
  database = await createTestDatabase();
  appA = await buildTestApp({ config: config(issuer.issuer), database, now });
  appB = await buildTestApp({ config: config(issuer.issuer), database, now });
});

afterAll(async () => {
  await appA?.close();
  await appB?.close();
  await database?.close();
  await issuer?.close();
});

const tokens = new Map<string, string>();
async function tokenOf(sub: string, domain = 'example.com', roles?: string[]) {
  const key = `${sub}@${domain}:${roles?.join(',') ?? ''}`;
  let token = tokens.get(key);
  if (!token) {
    token = await issuer.sign({ ...accessClaims(sub, domain), ...(roles ? { roles } : {}) });
    tokens.set(key, token);
  }
  return token;
}

type Call = { method?: 'GET' | 'POST'; url: string; token: string; body?: unknown; app?: App };
async function call({ method = 'GET', url, token, body, app = appA }: Call) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

const admin = () => tokenOf('admin');

async function adminCall(url: string, body?: unknown) {
  return call({ method: body === undefined ? 'GET' : 'POST', url, token: await admin(), body });
}

async function signIn(sub: string, domain = 'example.com', app = appA) {
  const res = await call({ url: identityPaths.checkAppAccess, token: await tokenOf(sub, domain), app });
  expect(res.statusCode).toBe(200);
  return res.json() as { hasAccess: boolean };
}

async function entryOf(email: string) {
  const res = await adminCall(`${adminPaths.access}?q=${encodeURIComponent(email)}`);
  expect(res.statusCode).toBe(200);
  const list = res.json() as AccessListResponse;
  return list.entries.find((e) => e.user.email === email);
}

async function userIdOf(email: string) {
  const [row] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

async function auditOf(targetUserId: string) {
  return database.db
    .select({
      action: auditEvents.action,
      actorEmail: auditEvents.actorEmail,
      details: auditEvents.details,
      ip: auditEvents.ip,
    })
    .from(auditEvents)
    .where(and(eq(auditEvents.targetUserId, targetUserId)))
    .orderBy(asc(auditEvents.id));
}

const decision = (requestId: string) => adminPaths.accessRequestDecision.replace(':requestId', requestId);

describe('granting access', () => {
  it('refuses an e-mail nobody has signed in with, naming the field', async () => {
    const res = await adminCall(adminPaths.accessGrants, { email: 'nobody@example.com', reason: 'New hire' });
    expect(res.statusCode).toBe(400);
    const { error } = res.json() as { error: { code: string; issues: { path: string; message: string }[] } };
    expect(error.code).toBe('validation_failed');
    expect(error.issues).toEqual([
      {
        path: 'body.email',
        message: expect.stringContaining(
          'No one with the e-mail nobody@example.com has signed in to GEM yet',
        ) as string,
      },
    ]);
  });

  it('needs a reason, and one person named by id or e-mail', async () => {
    await signIn('gina');
    const noReason = await adminCall(adminPaths.accessGrants, { email: 'gina@example.com' });
    expect(noReason.statusCode).toBe(400);
    expect(JSON.stringify(noReason.json())).toContain('Give a reason.');
    const blank = await adminCall(adminPaths.accessGrants, { email: 'gina@example.com', reason: '   ' });
    expect(blank.statusCode).toBe(400);
    const nul = await adminCall(adminPaths.accessGrants, { email: 'gina@example.com', reason: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    const both = await adminCall(adminPaths.accessGrants, {
      email: 'gina@example.com',
      userId: await userIdOf('gina@example.com'),
      reason: 'x',
    });
    expect(both.statusCode).toBe(400);
    const unknownId = await adminCall(adminPaths.accessGrants, {
      userId: '00000000-0000-4000-8000-000000000000',
      reason: 'x',
    });
    expect(unknownId.statusCode).toBe(400);
    expect(JSON.stringify(unknownId.json())).toContain('No one GEM knows has this id');
  });

  it('puts a person on the list with who, when and why, and audits it', async () => {
    expect(await signIn('gina')).toMatchObject({ hasAccess: false });
    expect((await entryOf('gina@example.com'))?.rule).toBe('none');
    const res = await adminCall(adminPaths.accessGrants, {
      email: 'Gina@Example.com',
      reason: 'Joins the team',
    });
    expect(res.statusCode).toBe(200);
    const { entry } = res.json() as { entry: AccessListResponse['entries'][number] };
    expect(entry).toMatchObject({
      hasAccess: true,
      rule: 'list',
      grant: { reason: 'Joins the team', grantedBy: { email: 'admin@example.com' } },
      revocation: null,
    });
    expect(entry.lastSeenAt).toBe(new Date(clock).toISOString());
    expect((await signIn('gina')).hasAccess).toBe(true);
    const adminId = await userIdOf('admin@example.com');
    expect(await auditOf(entry.user.userId)).toEqual(
      expect.arrayContaining([
        {
          action: 'access.granted',
          actorEmail: 'admin@example.com',
          details: { reason: 'Joins the team', before: 'none' },
          ip: expect.any(String) as string,
        },
      ]),
    );
    const [granted] = await database.db
      .select({ actor: auditEvents.actorUserId })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'access.granted'), eq(auditEvents.targetUserId, entry.user.userId)));
    expect(granted?.actor).toBe(adminId);
    // A second grant changes nothing, and says so.
    const again = await adminCall(adminPaths.accessGrants, { userId: entry.user.userId, reason: 'Again' });
    expect(again.statusCode).toBe(409);
  });

  it('is for administrators only', async () => {
    const res = await call({ url: adminPaths.access, token: await tokenOf('gina') });
    expect(res.statusCode).toBe(403);
  });
});

describe('the access list', () => {
  it('shows how each person gets in, and filters by rule and text', async () => {
    await signIn('dana', 'contoso.example');
    await call({
      url: identityPaths.checkAppAccess,
      token: await tokenOf('ops', 'example.com', ['GEM.Admin']),
    });
    const res = await adminCall(adminPaths.access);
    const list = res.json() as AccessListResponse;
    const rules = Object.fromEntries(list.entries.map((e) => [e.user.email, e.rule]));
    expect(rules).toMatchObject({
      'admin@example.com': 'admin',
      'ops@example.com': 'admin',
      'dana@contoso.example': 'domain',
      'gina@example.com': 'list',
    });
    const domain = (await adminCall(`${adminPaths.access}?rule=domain`)).json() as AccessListResponse;
    expect(domain.entries.map((e) => e.user.email)).toEqual(['dana@contoso.example']);
    expect(domain.total).toBe(list.total);
    const bad = await adminCall(`${adminPaths.access}?rule=everyone`);
    expect(bad.statusCode).toBe(400);
  });
});

describe('revoking access', () => {
  it('refuses oneself, an administrator, an unknown id and no reason, in words', async () => {
    const adminId = await userIdOf('admin@example.com');
    const self = await adminCall(adminPaths.accessRevocations, { userId: adminId, reason: 'Leaving' });
    expect(self.statusCode).toBe(400);
    expect(JSON.stringify(self.json())).toContain('You cannot revoke your own access');
    const ops = await adminCall(adminPaths.accessRevocations, {
      userId: await userIdOf('ops@example.com'),
      reason: 'Leaving',
    });
    expect(ops.statusCode).toBe(400);
    expect(JSON.stringify(ops.json())).toContain('GEM_ADMIN_EMAILS');
    const unknown = await adminCall(adminPaths.accessRevocations, {
      userId: '00000000-0000-4000-8000-000000000000',
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(400);
    const noReason = await adminCall(adminPaths.accessRevocations, {
      userId: await userIdOf('gina@example.com'),
    });
    expect(noReason.statusCode).toBe(400);
    expect((noReason.json() as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe(
      'body.reason',
    );
  });

  it('shuts a listed person out at once here, and on another instance once its decision runs out', async () => {
    const gina = await tokenOf('gina');
    expect((await call({ url: aiStatusPath, token: gina, app: appA })).statusCode).toBe(200);
    expect((await call({ url: aiStatusPath, token: gina, app: appB })).statusCode).toBe(200);

    const res = await adminCall(adminPaths.accessRevocations, {
      userId: await userIdOf('gina@example.com'),
      reason: 'Left the company',
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { entry: unknown }).entry).toMatchObject({
      hasAccess: false,
      rule: 'revoked',
      grant: null,
      revocation: { reason: 'Left the company', revokedBy: { email: 'admin@example.com' } },
    });

    // This instance forgot its decision; the other still holds its own, for at most 60 s.
    expect((await call({ url: aiStatusPath, token: gina, app: appA })).statusCode).toBe(403);
    expect((await call({ url: aiStatusPath, token: gina, app: appB })).statusCode).toBe(200);
    clock += 60_001;
    expect((await call({ url: aiStatusPath, token: gina, app: appB })).statusCode).toBe(403);

    const again = await adminCall(adminPaths.accessRevocations, {
      userId: await userIdOf('gina@example.com'),
      reason: 'Twice',
    });
    expect(again.statusCode).toBe(409);
    const audit = await auditOf(await userIdOf('gina@example.com'));
    expect(audit.filter((e) => e.action === 'access.revoked')).toEqual([
      {
        action: 'access.revoked',
        actorEmail: 'admin@example.com',
        details: { reason: 'Left the company', before: 'list' },
        ip: expect.any(String) as string,
      },
    ]);
  });

  it('holds against the domain that lets someone in, until access is granted again', async () => {
    const dana = await tokenOf('dana', 'contoso.example');
    expect((await call({ url: aiStatusPath, token: dana })).statusCode).toBe(200);
    const danaId = await userIdOf('dana@contoso.example');
    const res = await adminCall(adminPaths.accessRevocations, { userId: danaId, reason: 'Contractor ended' });
    expect(res.statusCode).toBe(200);
    expect((await call({ url: aiStatusPath, token: dana })).statusCode).toBe(403);
    expect((await entryOf('dana@contoso.example'))?.rule).toBe('revoked');

    const grant = await adminCall(adminPaths.accessGrants, { userId: danaId, reason: 'Back on the project' });
    expect(grant.statusCode).toBe(200);
    expect((grant.json() as { entry: { rule: string; revocation: unknown } }).entry).toMatchObject({
      rule: 'list',
      revocation: null,
    });
    expect((await call({ url: aiStatusPath, token: dana })).statusCode).toBe(200);
  });
});

describe('access requests', () => {
  it('go from the Access Denied page to an administrator, who approves; the requester gets in', async () => {
    const olive = await tokenOf('olive');
    expect((await signIn('olive')).hasAccess).toBe(false);
    const none = await call({ url: adminPaths.accessRequest, token: olive });
    expect(none.json()).toEqual({ request: null, hasAccess: false });

    const sent = await call({
      method: 'POST',
      url: adminPaths.accessRequest,
      token: olive,
      body: { note: 'I run the spring campaign' },
    });
    expect(sent.statusCode).toBe(201);
    const first = (sent.json() as { request: { id: string; status: string; note: string } }).request;
    expect(first).toMatchObject({ status: 'pending', note: 'I run the spring campaign' });

    // A second one while pending is the same request, with the new note.
    const second = await call({
      method: 'POST',
      url: adminPaths.accessRequest,
      token: olive,
      body: { note: 'For the spring campaign, from Monday' },
    });
    expect(second.statusCode).toBe(200);
    expect((second.json() as { request: { id: string; note: string } }).request).toMatchObject({
      id: first.id,
      note: 'For the spring campaign, from Monday',
    });

    const tooLong = await call({
      method: 'POST',
      url: adminPaths.accessRequest,
      token: olive,
      body: { note: 'x'.repeat(1001) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect((tooLong.json() as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe(
      'body.note',
    );

    const listed = (await adminCall(adminPaths.accessRequests)).json() as AccessRequestsResponse;
    expect(listed.pending).toEqual([
      expect.objectContaining({
        id: first.id,
        user: expect.objectContaining({ email: 'olive@example.com' }),
      }),
    ]);
    expect((await entryOf('olive@example.com'))?.pendingRequestId).toBe(first.id);

    const approved = await adminCall(decision(first.id), { decision: 'approve' });
    expect(approved.statusCode).toBe(200);
    expect((approved.json() as { request: unknown }).request).toMatchObject({
      status: 'approved',
      decisionReason: 'Access request approved',
      decidedBy: { email: 'admin@example.com' },
    });
    expect((await call({ url: aiStatusPath, token: olive })).statusCode).toBe(200);
    const outcome = await call({ url: adminPaths.accessRequest, token: olive });
    expect(outcome.json()).toMatchObject({ hasAccess: true, request: { id: first.id, status: 'approved' } });

    const twice = await adminCall(decision(first.id), { decision: 'decline' });
    expect(twice.statusCode).toBe(409);

    // Someone who has access asks for nothing.
    const inAlready = await call({ method: 'POST', url: adminPaths.accessRequest, token: olive, body: {} });
    expect(inAlready.statusCode).toBe(200);
    expect(inAlready.json()).toMatchObject({ hasAccess: true, request: { id: first.id } });

    const actions = (await auditOf(await userIdOf('olive@example.com'))).map((e) => [e.action, e.actorEmail]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['access.requested', 'olive@example.com'],
        ['access.granted', 'admin@example.com'],
        ['access.request-approved', 'admin@example.com'],
      ]),
    );
    expect(actions.filter(([a]) => a === 'access.requested')).toHaveLength(2);
  });

  it('can be declined with a reason the requester sees, and asked again', async () => {
    const pete = await tokenOf('pete');
    await signIn('pete');
    const sent = await call({ method: 'POST', url: adminPaths.accessRequest, token: pete, body: {} });
    expect(sent.statusCode).toBe(201);
    const { id } = (sent.json() as { request: { id: string; note: null } }).request;

    const declined = await adminCall(decision(id), { decision: 'decline', reason: 'Not in marketing' });
    expect(declined.statusCode).toBe(200);
    expect((await call({ url: aiStatusPath, token: pete })).statusCode).toBe(403);
    const seen = await call({ url: adminPaths.accessRequest, token: pete });
    expect(seen.json()).toMatchObject({
      hasAccess: false,
      request: { id, status: 'declined', decisionReason: 'Not in marketing', note: null },
    });

    const again = await call({
      method: 'POST',
      url: adminPaths.accessRequest,
      token: pete,
      body: { note: 'Moved' },
    });
    expect(again.statusCode).toBe(201);
    expect((again.json() as { request: { id: string } }).request.id).not.toBe(id);

    const listed = (await adminCall(adminPaths.accessRequests)).json() as AccessRequestsResponse;
    expect(listed.decided.find((r) => r.id === id)).toMatchObject({ status: 'declined' });
    const audit = await auditOf(await userIdOf('pete@example.com'));
    expect(audit.find((e) => e.action === 'access.request-declined')).toMatchObject({
      actorEmail: 'admin@example.com',
      details: { requestId: id, reason: 'Not in marketing' },
    });
    const rows = await database.db
      .select()
      .from(accessRequests)
      .where(eq(accessRequests.userId, await userIdOf('pete@example.com')));
    expect(rows.map((r) => r.status).sort()).toEqual(['declined', 'pending']);
  });

  it('answers 404 for an unknown request and 400 for a bad decision', async () => {
    const unknown = await adminCall(decision('00000000-0000-4000-8000-000000000000'), {
      decision: 'approve',
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await adminCall(decision('00000000-0000-4000-8000-000000000000'), { decision: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain("Choose 'approve' or 'decline'.");
  });
});

describe('the demo accounts on /login', () => {
  it('are in the auth config only while the embedded provider has them on', async () => {
    const external = await appA.inject({ url: identityPaths.authConfig });
    expect(external.json()).not.toHaveProperty('demoAccounts');

    const embedded = await buildTestApp({ config: testConfig(), database });
    try {
      expect(testConfig().auth).toMatchObject({ mode: 'embedded', demoAccounts: true });
      const res = await embedded.inject({ url: identityPaths.authConfig });
      expect((res.json() as { demoAccounts: unknown }).demoAccounts).toEqual([
        { email: 'marketer@example.com', password: 'marketer', label: 'Demo Marketer' },
        { email: 'colleague@example.com', password: 'colleague', label: 'Demo Colleague' },
        { email: 'outsider@example.com', password: 'outsider', label: 'Demo Outsider' },
        { email: 'admin@example.com', password: 'admin', label: 'Demo Admin' },
      ]);
    } finally {
      await embedded.close();
    }
  });
});
