import { randomUUID } from 'node:crypto';
import { briefCreatorPaths } from '@gem/contracts/brief-creator';
import { identityPaths } from '@gem/contracts/identity';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessClaims, buildTestApp, externalAuth } from '../../test/test-app';
import { testConfig } from '../../test/test-config';
import { createTestDatabase } from '../../test/test-database';
import type { App } from '../app';
import type { Config } from '../config';
import type { Database } from '../db/client';
import * as schema from '../db/schema/index';
import { appAccessGrants, briefSessions, users } from '../db/schema/index';

/**
 * The auth hook answers remembered tokens and decisions at once and the rest through promises:
 * both paths must let in, refuse and fail alike. On the app as server.ts builds it, with an
 * external issuer (the test-servers OIDC issuer): the token verifier remembers a token it has
 * verified, the identity service a "yes" for its decision window; a "no" and a decision that
 * failed are never remembered, so they are always decided through a promise.
 */

type Mode = 'at once' | 'through a promise';
const modes: Mode[] = ['at once', 'through a promise'];

// The protected scope (a valid token and hasAccess): the user's own brief sessions.
const PROTECTED = briefCreatorPaths.chatSessions;
// The access check (a valid token is enough).
const CHECK = identityPaths.checkAppAccess;

let issuer: OidcIssuer;
let config: Config;
let database: Database;
let app: App;
/** How far the app's clock is ahead of the wall clock: moved on to let decisions expire. */
let clockAhead = 0;
// A decision that fails: a query that fails (the grants table is gone) and a database that cannot be reached.
let brokenDatabase: Database;
let broken: App;
let down: pg.Pool;
let unreachable: App;

beforeAll(async () => {
  issuer = await startOidcIssuer();
  const base = testConfig();
  config = testConfig({
    auth: externalAuth(issuer.issuer),
    access: { ...base.access, allowedDomains: [], requiredRoles: [] },
  });
  database = await createTestDatabase();
  app = await buildTestApp({ config, database, now: () => Date.now() + clockAhead });
  await app.ready();

  // Everyone at example.com would be let in, if the decision could be made.
  const welcoming = testConfig({
    auth: externalAuth(issuer.issuer),
    access: { ...base.access, allowedDomains: ['example.com'], requiredRoles: [] },
  });
  brokenDatabase = await createTestDatabase();
  await brokenDatabase.db.execute(sql`drop table app_access_grants`);
  broken = await buildTestApp({ config: welcoming, database: brokenDatabase });
  await broken.ready();
  // A PostgreSQL that is down: nothing listens on port 1.
  down = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'gem', connectionTimeoutMillis: 2_000 });
  unreachable = await buildTestApp({
    config: welcoming,
    database: { ...database, db: drizzle({ client: down, schema }) },
  });
  await unreachable.ready();
});

afterAll(async () => {
  await app?.close();
  await broken?.close();
  await unreachable?.close();
  await down?.end();
  await database?.close();
  await brokenDatabase?.close();
  await issuer?.close();
});

const asked = (on: App, url: string, authorization?: string) =>
  on.inject({ url, headers: authorization === undefined ? {} : { authorization } });

let people = 0;
/** Someone who has not used GEM yet, on the allow-list (as the access tool puts them there) or not. */
async function newPerson(withAccess: boolean): Promise<string> {
  people += 1;
  const subject = `person-${people}`;
  if (withAccess) {
    const [row] = await database.db
      .insert(users)
      .values({ issuer: issuer.issuer, subject, email: `${subject}@example.com`, displayName: subject })
      .returning({ id: users.id });
    await database.db.insert(appAccessGrants).values({ userId: row!.id });
  }
  return subject;
}

/** A new access token for `subject` (never sent before: its signature is new). */
const newToken = (subject: string, expiresIn?: number) =>
  issuer.sign({ ...accessClaims(subject), jti: randomUUID() }, { expiresIn });

/**
 * A token of `subject`'s whose next request the gate answers with the token verified `verify`
 * and the decision made `decision`.
 */
async function tokenFor(on: App, subject: string, verify: Mode, decision: Mode): Promise<string> {
  if (decision === 'at once') {
    // A "yes" made a moment ago, through another token, is remembered.
    const earlier = await asked(on, CHECK, `Bearer ${await newToken(subject)}`);
    expect(earlier.json()).toEqual({ hasAccess: true });
  }
  const token = await newToken(subject);
  if (verify === 'at once') {
    // Verified once (not refused with 401, whatever the decision), the token is remembered.
    const earlier = await asked(on, CHECK, `Bearer ${token}`);
    expect(earlier.statusCode).not.toBe(401);
  }
  // Every decision made so far has passed its window.
  if (decision === 'through a promise' && on === app) clockAhead += config.access.decisionCacheMs + 1;
  return token;
}

async function userIdOf(subject: string): Promise<string> {
  const [row] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.issuer, issuer.issuer), eq(users.subject, subject)));
  if (!row) throw new Error(`${subject} has no users row`);
  return row.id;
}

/** A brief session of the user's: GET /api/brief/chat-sessions lists it for them and no one else. */
async function sessionOf(subject: string): Promise<string> {
  const [row] = await database.db
    .insert(briefSessions)
    .values({ userId: await userIdOf(subject) })
    .returning({ id: briefSessions.id });
  return row!.id;
}

describe.each(modes)('token verified %s', (verifyMode) => {
  describe.each(modes)('decision %s', (decisionMode) => {
    it('lets a user with access in, with their id on the request', async () => {
      const ann = await newPerson(true);
      const other = await newPerson(true);
      const annsSession = await sessionOf(ann);
      await sessionOf(other);

      const res = await asked(app, PROTECTED, `Bearer ${await tokenFor(app, ann, verifyMode, decisionMode)}`);
      expect(res.statusCode).toBe(200);
      // The route answers for the user whose id the gate put on the request: Ann's session only.
      expect(res.json<{ chatSessions: { id: string }[] }>().chatSessions.map((s) => s.id)).toEqual([
        annsSession,
      ]);
      const check = await asked(app, CHECK, `Bearer ${await tokenFor(app, ann, verifyMode, decisionMode)}`);
      expect(check.statusCode).toBe(200);
      expect(check.json()).toEqual({ hasAccess: true });
    });

    it('takes the scheme in any case and with more than one space', async () => {
      const ann = await newPerson(true);
      for (const scheme of ['bearer ', 'BEARER  ']) {
        const token = await tokenFor(app, ann, verifyMode, decisionMode);
        expect((await asked(app, PROTECTED, `${scheme}${token}`)).statusCode, scheme).toBe(200);
      }
    });
  });

  // A "no" and a decision that failed are never remembered: they are decided through a promise.
  it('refuses a user without access with 403, and lets them reach the check', async () => {
    const bob = await newPerson(false);
    const refused = await asked(
      app,
      PROTECTED,
      `Bearer ${await tokenFor(app, bob, verifyMode, 'through a promise')}`,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');

    const answered = await asked(
      app,
      CHECK,
      `Bearer ${await tokenFor(app, bob, verifyMode, 'through a promise')}`,
    );
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual({ hasAccess: false });
  });

  it('refuses a missing, malformed or rejected token with 401 and a challenge', async () => {
    const ann = await newPerson(true);
    const good = await tokenFor(app, ann, verifyMode, 'through a promise');
    // One character of the payload changed: remembered tokens are compared whole.
    const [header, payload = '', signature] = good.split('.');
    const middle = Math.floor(payload.length / 2);
    const changed = `${payload.slice(0, middle)}${payload[middle] === 'A' ? 'B' : 'A'}${payload.slice(middle + 1)}`;
    const tampered = [header, changed, signature].join('.');
    const expired = await newToken(ann, -61);
    for (const authorization of [
      undefined,
      `Basic ${good}`,
      'Bearer bad',
      `Bearer ${expired}`,
      `Bearer ${tampered}`,
      'Bearer ',
      'Bearer',
      `Bearer${good}`,
    ]) {
      const res = await asked(app, PROTECTED, authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="GEM"/);
    }
    // The token itself still lets Ann in.
    expect((await asked(app, PROTECTED, `Bearer ${good}`)).statusCode).toBe(200);
  });

  it('answers a failed decision (a query that fails) with 500, not a way in', async () => {
    for (const url of [PROTECTED, CHECK]) {
      const token = await tokenFor(broken, 'carol', verifyMode, 'through a promise');
      const res = await asked(broken, url, `Bearer ${token}`);
      expect(res.statusCode, url).toBe(500);
      expect(res.json().error.code).toBe('internal_error');
    }
  });

  it('answers a failed decision (the database down) with 503, not a way in', async () => {
    for (const url of [PROTECTED, CHECK]) {
      const token = await tokenFor(unreachable, 'dave', verifyMode, 'through a promise');
      const res = await asked(unreachable, url, `Bearer ${token}`);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().error.code).toBe('service_unavailable');
    }
  });
});
