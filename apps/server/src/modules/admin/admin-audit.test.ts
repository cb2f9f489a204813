import { auditResponseSchema, type AuditResponse } from '@gem/contracts/admin-audit';
import { adminPaths } from '@gem/contracts/admin-paths';
import { errorResponseSchema } from '@gem/contracts/errors';
import { authConfigResponseSchema } from '@gem/contracts/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  freePort,
  openSignInPage,
  signIn,
  submitSignIn,
  type AuthConfig,
} from '../../../test/embedded-sign-in';
import { testLogger } from '../../../test/log-capture';
import { buildTestApp } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import type { Database } from '../../db/client';
import { auditEvents } from '../../db/schema/index';
import { recordAudit } from '../../lib/audit';
import { createScheduler } from '../../lib/scheduler';
import { AUDIT_PURGE_TASK, containsPattern, createAdminAudit } from './admin-audit.service';
import type { AdminDeps } from './admin.deps';

/**
 * The audit log (issue 30) through the real app with its embedded provider: sign-ins on the
 * form recorded without their password, the search, the filters, the pages, the retention and
 * the scheduler's purge on an injected clock.
 */

const DAY = 24 * 60 * 60 * 1000;
let database: Database;
let app: App;
let origin: string;
let authConfig: AuthConfig;
let adminToken: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const base = testConfig();
  app = await buildTestApp({
    config: testConfig({
      auth: { ...base.auth, publicUrl: origin, issuer: `${origin}/oidc`, audience: `${origin}/api` },
    }),
    database,
  });
  await app.listen({ port, host: '127.0.0.1' });
  authConfig = authConfigResponseSchema.parse(
    await (await fetch(`${origin}/api/identity/auth-config`)).json(),
  );
  adminToken = (await signIn(new Browser(origin), authConfig, 'admin@example.com', 'admin')).access_token;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

async function api(method: 'GET' | 'PUT', url: string, body?: unknown, token = adminToken) {
  const res = await fetch(`${origin}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

async function audit(query: Record<string, string> = {}): Promise<AuditResponse> {
  const { status, json } = await api('GET', `${adminPaths.audit}?${new URLSearchParams(query)}`);
  expect(status, JSON.stringify(json)).toBe(200);
  return auditResponseSchema.parse(json);
}

const allRows = () => database.db.select().from(auditEvents);

describe('sign-ins on the embedded form', () => {
  it('are recorded, success and failure, with the e-mail typed, the reason and the address, never the password', async () => {
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, authConfig);
    expect((await submitSignIn(browser, page, 'Nobody@Example.com', 'pw-unknown-7731')).res.status).toBe(401);
    expect((await submitSignIn(browser, page, 'marketer@example.com', 'pw-wrong-5519')).res.status).toBe(401);
    await signIn(new Browser(origin), authConfig, 'marketer@example.com', 'marketer');

    const { entries, signIns } = await audit({ action: 'sign-in' });
    expect(signIns).toBe('recorded');
    const [succeeded, wrong, unknown] = entries;
    expect(succeeded).toMatchObject({
      action: 'sign-in.succeeded',
      actorEmail: 'marketer@example.com',
      ip: '127.0.0.1',
    });
    expect(wrong).toMatchObject({
      action: 'sign-in.failed',
      actorEmail: 'marketer@example.com',
      details: { reason: 'wrong-password' },
    });
    expect(unknown).toMatchObject({
      action: 'sign-in.failed',
      actorEmail: 'nobody@example.com',
      details: { reason: 'unknown-account' },
      ip: '127.0.0.1',
    });
    // The admin's own sign-in (beforeAll) is the oldest of them.
    expect(entries.at(-1)).toMatchObject({ action: 'sign-in.succeeded', actorEmail: 'admin@example.com' });

    const stored = JSON.stringify(await allRows());
    for (const password of ['pw-unknown-7731', 'pw-wrong-5519']) expect(stored).not.toContain(password);
    expect(stored).not.toContain('"password"');
  });

  it('records an e-mail the database could not store as it can (a NUL replaced), and still answers 401', async () => {
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, authConfig);
    expect((await submitSignIn(browser, page, 'eve\u0000@example.com', 'x')).res.status).toBe(401);
    const { entries } = await audit({ q: 'eve' });
    expect(entries[0]).toMatchObject({ action: 'sign-in.failed', actorEmail: 'eve\ufffd@example.com' });
  });
});

describe('the search and the filters', () => {
  beforeAll(async () => {
    const { db } = database;
    await recordAudit(db, { action: 'price.set', target: 'model 100%_off', details: { inputPer1k: '0.5' } });
    await recordAudit(db, { action: 'price.set', target: 'model 100xyoff' });
    await recordAudit(db, { action: 'price.removed', target: 'model back\\slash' });
    await db.insert(auditEvents).values([
      { action: 'access.granted', target: 'old@contoso.example', at: new Date('2026-03-01T10:00:00Z') },
      { action: 'access.revoked', target: 'old@contoso.example', at: new Date('2026-03-02T23:59:59Z') },
      { action: 'access.revoked', target: 'old@contoso.example', at: new Date('2026-03-03T00:00:00Z') },
    ]);
  });

  it('matches % and _ as themselves, in the actor, the target or the action, any case', async () => {
    expect((await audit({ q: '100%_' })).entries.map((e) => e.target)).toEqual(['model 100%_off']);
    expect((await audit({ q: 'BACK\\' })).entries.map((e) => e.target)).toEqual(['model back\\slash']);
    expect((await audit({ q: 'MODEL 100' })).entries).toHaveLength(2);
    expect((await audit({ q: 'price.rem' })).entries.map((e) => e.action)).toEqual(['price.removed']);
    expect((await audit({ q: 'MARKETER@' })).entries.length).toBeGreaterThanOrEqual(2);
    expect(containsPattern('a%b_c\\')).toBe('%a\\%b\\_c\\\\%');
  });

  it('filters by kind, by action and by days (both included)', async () => {
    const kinds = (r: AuditResponse) => [...new Set(r.entries.map((e) => e.action))].sort();
    expect(kinds(await audit({ action: 'price' }))).toEqual(['price.removed', 'price.set']);
    expect(kinds(await audit({ action: 'price.set' }))).toEqual(['price.set']);
    const march = await audit({ from: '2026-03-01', to: '2026-03-02' });
    expect(march.entries.map((e) => [e.action, e.at])).toEqual([
      ['access.revoked', '2026-03-02T23:59:59.000Z'],
      ['access.granted', '2026-03-01T10:00:00.000Z'],
    ]);
    expect((await audit({ from: '2026-03-03', to: '2026-03-03', q: 'old@' })).entries).toHaveLength(1);
  });

  it('refuses what it cannot search with a 400 naming the field', async () => {
    for (const [query, path] of [
      ['action=bogus', 'querystring.action'],
      ['from=2026-03-05&to=2026-03-01', 'querystring.to'],
      ['from=yesterday', 'querystring.from'],
      ['before=abc', 'querystring.before'],
      [`q=${'x'.repeat(201)}`, 'querystring.q'],
    ] as const) {
      const { status, json } = await api('GET', `${adminPaths.audit}?${query}`);
      expect(status, query).toBe(400);
      expect(
        errorResponseSchema.parse(json).error.issues?.map((i) => i.path),
        query,
      ).toContain(path);
    }
  });
});

describe('pages', () => {
  it('go newest first, each after the last one shown, with entries of the same moment kept apart', async () => {
    const at = new Date('2025-06-01T12:00:00.123456Z');
    await database.db
      .insert(auditEvents)
      .values(Array.from({ length: 120 }, (_, i) => ({ action: 'price.set', target: `paged ${i}`, at })));
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const page: AuditResponse = await audit({ q: 'paged', ...(before ? { before } : {}) });
      seen.push(...page.entries.map((e) => e.target ?? ''));
      before = page.nextBefore;
      pages += 1;
    } while (before);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    // Same moment: the later-written first.
    expect(seen[0]).toBe('paged 119');
    expect(seen.at(-1)).toBe('paged 0');
  });
});

describe('the retention', () => {
  it('is set by an administrator within 7 to 3650 days, and the change is an entry', async () => {
    expect((await audit()).retentionDays).toBe(365);
    for (const days of [6, 3651, 30.5, '30', null]) {
      const { status, json } = await api('PUT', adminPaths.auditRetention, { days });
      expect(status, String(days)).toBe(400);
      expect(errorResponseSchema.parse(json).error.issues?.map((i) => i.path)).toEqual(['body.days']);
    }
    const { status, json } = await api('PUT', adminPaths.auditRetention, { days: 30 });
    expect(status).toBe(200);
    expect(json).toEqual({ retentionDays: 30 });
    const { entries, retentionDays } = await audit({ action: 'audit.retention-set' });
    expect(retentionDays).toBe(30);
    expect(entries[0]).toMatchObject({
      actorEmail: 'admin@example.com',
      details: { from: 365, to: 30 },
      ip: '127.0.0.1',
    });
    expect(entries[0]?.actorUserId).toEqual(expect.any(String));
  });

  it('is for administrators only', async () => {
    const marketer = (await signIn(new Browser(origin), authConfig, 'marketer@example.com', 'marketer'))
      .access_token;
    expect((await api('PUT', adminPaths.auditRetention, { days: 10 }, marketer)).status).toBe(403);
    expect((await api('GET', adminPaths.audit, undefined, marketer)).status).toBe(403);
  });
});

describe('the purge', () => {
  it('runs as a scheduler task on its clock, removing entries older than the retention in batches, and records how many', async () => {
    const { db } = database;
    // The entries the purge writes are stamped by the database's clock: the task's is set beside it.
    const clock = Date.now();
    await db.delete(auditEvents);
    await db
      .insert(auditEvents)
      .values([
        ...Array.from({ length: 5_003 }, () => ({ action: 'price.set', at: new Date(clock - 31 * DAY) })),
        { action: 'price.set', target: 'kept', at: new Date(clock - 29 * DAY) },
      ]);
    const scheduler = createScheduler({ db, log: testLogger(testConfig()) });
    const deps = { db, config: testConfig(), scheduler, log: testLogger(testConfig()), now: () => clock };
    const service = createAdminAudit(deps as unknown as AdminDeps);
    await service.retentionDays().then((days) => expect(days).toBe(30));

    expect(await scheduler.runNow(AUDIT_PURGE_TASK, { force: true })).toBe(true);
    const rows = await db.select().from(auditEvents);
    expect(rows.map((r) => r.target).sort()).toEqual(['Audit log', 'kept']);
    expect(rows.find((r) => r.action === 'audit.purged')?.details).toMatchObject({
      count: 5_003,
      retentionDays: 30,
    });

    // Nothing more to remove: no entry of an empty purge.
    expect(await service.purge()).toBe(0);
    expect(await db.select().from(auditEvents)).toHaveLength(2);
    await scheduler.stop();
  });
});
