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
import { rememberSecret } from '../../../test/log-capture';
import { buildTestApp } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import type { Database } from '../../db/client';
import { createLocalAccounts } from '../../integrations/oidc/embedded/local-accounts';

/**
 * The embedded sign-in while someone guesses an account's password (issue 25), over real HTTP
 * with the throttle's default limits and an injected clock. Behind a trusted proxy, so each
 * client has its own address (X-Forwarded-For). The owner must get in: at the first try from a
 * browser that signed in to the account before (its device cookie), and from a new one within
 * one wait.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const DEVICE_COOKIE = /^gem-device-/;

let clock = Date.UTC(2026, 0, 5, 9, 0, 0);
let database: Database;
let app: App;
let origin: string;
let config: AuthConfig;

async function listen(publicUrl?: string) {
  const port = await freePort();
  const server = `http://127.0.0.1:${port}`;
  const url = publicUrl ?? server;
  const base = testConfig();
  const built = await buildTestApp({
    config: testConfig({
      trustProxy: 1,
      auth: { ...base.auth, publicUrl: url, issuer: `${url}/oidc`, audience: `${url}/api` },
    }),
    database,
    seams: { identity: { throttle: { now: () => clock } } },
  });
  await built.listen({ port, host: '127.0.0.1' });
  const authConfig = authConfigResponseSchema.parse(
    await (await fetch(`${server}/api/identity/auth-config`)).json(),
  );
  return { app: built, server, config: authConfig };
}

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app, server: origin, config } = await listen());
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const at = (address: string) => new Browser(origin, { address });
const account = (email: string, password: string) =>
  createLocalAccounts(database.db).add({ email, password });

/** The browser's provider session is over (signed out, or 8 hours on): its device cookie stays. */
function sessionOver(browser: Browser) {
  for (const name of [...browser.cookies.keys()]) if (!DEVICE_COOKIE.test(name)) browser.cookies.delete(name);
}

/** The browser's device cookie, [name, value]. */
function deviceCookie(browser: Browser): [string, string] {
  const found = [...browser.cookies].find(([name]) => DEVICE_COOKIE.test(name));
  if (!found) throw new Error('no device cookie');
  rememberSecret('token', found[1]);
  return found;
}

/** A browser that signed in to this account before, at `when`, and whose session is over. */
async function knownDevice(email: string, password: string, address: string, when = clock) {
  const now = clock;
  clock = when;
  const browser = at(address);
  await signIn(browser, config, email, password);
  sessionOver(browser);
  clock = now;
  return browser;
}

/** The form posted once, with its answer's status, text and Retry-After. */
async function attempt(browser: Browser, email: string, password: string) {
  const page = await openSignInPage(browser, config);
  const done = await submitSignIn(browser, page, email, password);
  const signedIn = new URL(done.url, browser.origin).searchParams.get('code') !== null;
  return {
    status: signedIn ? 'signed in' : done.res.status,
    text: signedIn ? '' : await done.res.text(),
    retryAfter: Number(done.res.headers.get('retry-after') ?? 0),
  };
}

/** Ten wrong passwords for the account from one address: it waits 15 s after them. */
async function holdAccount(email: string, address: string) {
  const attacker = at(address);
  const page = await openSignInPage(attacker, config);
  for (let i = 0; i < 10; i += 1) {
    expect((await submitSignIn(attacker, page, email, `wrong-guess-${i}`)).res.status).toBe(401);
  }
  expect((await attempt(attacker, email, 'wrong-guess-x')).status).toBe(429);
}

describe('an attacker posting a wrong password every 200 ms for 10 minutes', () => {
  it('keeps the owner out neither on a known device (first try) nor on a new one (one wait)', async () => {
    const email = 'owner@example.com';
    const password = 'owner-password-1';
    await account(email, password);
    clock += DAY;
    const start = clock;
    // The owner's laptop signed in last week; the attacker's address is another.
    const laptop = await knownDevice(email, password, '198.51.100.10', start - 7 * DAY);
    const attacker = at('203.0.113.66');
    const attackPage = await openSignInPage(attacker, config);
    const phone = at('198.51.100.20');
    const answers: Record<string, number> = {};
    const laptopTries: (number | string)[] = [];
    let phoneDue: number | undefined;
    let phoneSignedIn: number | undefined;

    for (let tick = 0; tick < (10 * MINUTE) / 200; tick += 1) {
      clock = start + tick * 200;
      const { res } = await submitSignIn(attacker, attackPage, email, `wrong-guess-${tick % 7}`);
      answers[res.status] = (answers[res.status] ?? 0) + 1;
      await res.arrayBuffer();
      const t = clock - start;
      // Just after the attacker's tenth failure the owner tries on a new phone, is told to wait,
      // and tries again exactly when told.
      if (t === 2 * SECOND) {
        const held = await attempt(phone, email, password);
        expect(held.status).toBe(429);
        expect(held.text).toContain(`Try again in ${held.retryAfter} seconds.`);
        phoneDue = clock + held.retryAfter * SECOND;
      }
      if (clock === phoneDue) {
        const again = await attempt(phone, email, password);
        expect(again.status).toBe('signed in');
        phoneSignedIn = t;
      }
      // The laptop signs in now and then, each time at its first try.
      if (t % MINUTE === 0 && t > 0) {
        laptopTries.push((await attempt(laptop, email, password)).status);
        sessionOver(laptop);
      }
    }

    clock = start + 10 * MINUTE;
    expect(phoneSignedIn).toBe(17 * SECOND);
    expect(laptopTries).toEqual(Array.from({ length: 9 }, () => 'signed in'));
    // Ten guesses in ten minutes reached the password check; every other try was refused...
    expect(answers).toEqual({ 401: 10, 429: 2990 });
    // ...and counted against the attacker's address: ten failures alone would leave it free for
    // another e-mail, but it is held until its 15 minutes end.
    const other = await attempt(attacker, 'someone-else@example.com', 'wrong-guess-0');
    expect(other.status).toBe(429);
    expect(other.text).toContain('Try again in 5 minutes.');
    expect((await attempt(at('203.0.113.67'), 'someone-else@example.com', 'wrong-guess-0')).status).toBe(401);
  }, 300_000);
});

describe('the device cookie', () => {
  it('is left by a sign-in for the sign-in form only, HttpOnly, SameSite=Lax, for 90 days', async () => {
    await account('cookie@example.com', 'cookie-password');
    const browser = at('198.51.100.30');
    const page = await openSignInPage(browser, config);
    const res = await browser.request(page.action ?? '/missing', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({
        csrf: page.csrf ?? '',
        email: 'cookie@example.com',
        password: 'cookie-password',
      }).toString(),
    });
    expect(res.status).toBe(303);
    const line = res.headers.getSetCookie().find((c) => DEVICE_COOKIE.test(c)) ?? '';
    rememberSecret('token', /=([^;]+)/.exec(line)?.[1]);
    const attributes = line.split(/;\s*/).slice(1).sort();
    expect(attributes).toEqual(['HttpOnly', 'Max-Age=7776000', 'Path=/oidc/interaction/', 'SameSite=Lax']);
    // Bound to the account, never naming it.
    expect(line).not.toMatch(/cookie@|example/);
  });

  it('is Secure when GEM’s public URL is https', async () => {
    const publicUrl = 'https://gem.example.com';
    const behind = await listen(publicUrl);
    try {
      await account('secure@example.com', 'secure-password');
      const browser = new Browser(publicUrl, { server: behind.server, address: '198.51.100.31' });
      const page = await openSignInPage(browser, behind.config);
      const res = await browser.request(page.action ?? '/missing', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: publicUrl },
        body: new URLSearchParams({
          csrf: page.csrf ?? '',
          email: 'secure@example.com',
          password: 'secure-password',
        }).toString(),
      });
      expect(res.status).toBe(303);
      const line = res.headers.getSetCookie().find((c) => DEVICE_COOKIE.test(c)) ?? '';
      rememberSecret('token', /=([^;]+)/.exec(line)?.[1]);
      expect(line.split(/;\s*/)).toContain('Secure');
    } finally {
      await behind.app.close();
    }
  });

  it('gives no bypass when tampered with, expired, or another account’s', async () => {
    clock += DAY;
    await account('ann@example.com', 'ann-password');
    await account('bob@example.com', 'bob-password');
    const old = await knownDevice('ann@example.com', 'ann-password', '198.51.100.40', clock - 91 * DAY);
    const recent = await knownDevice('ann@example.com', 'ann-password', '198.51.100.41');
    const bobs = await knownDevice('bob@example.com', 'bob-password', '198.51.100.42');
    const [annCookie, annValue] = deviceCookie(recent);
    const [, oldValue] = deviceCookie(old);
    const [, bobValue] = deviceCookie(bobs);
    await holdAccount('ann@example.com', '203.0.113.70');

    const withCookie = (value: string, address: string) => {
      const browser = at(address);
      browser.cookies.set(annCookie, value);
      return attempt(browser, 'ann@example.com', 'ann-password');
    };
    const [nonce, expires, mac] = oldValue.split('.');
    const flipped = `${annValue.slice(0, -1)}${annValue.endsWith('A') ? 'B' : 'A'}`;
    expect((await attempt(old, 'ann@example.com', 'ann-password')).status).toBe(429); // expired
    expect(
      (await withCookie(`${nonce}.${Number(expires) + 30 * 86_400}.${mac}`, '198.51.100.43')).status,
    ).toBe(429); // its date moved on
    expect((await withCookie(flipped, '198.51.100.44')).status).toBe(429); // its signature changed
    expect((await withCookie(bobValue, '198.51.100.45')).status).toBe(429); // Bob's, for Ann
    expect((await attempt(recent, 'ann@example.com', 'ann-password')).status).toBe('signed in');
  }, 60_000);

  it('that keeps failing loses its bypass, and only that one', async () => {
    clock += DAY;
    const email = 'carol@example.com';
    await account(email, 'carol-password');
    const laptop = await knownDevice(email, 'carol-password', '198.51.100.50');
    const desktop = await knownDevice(email, 'carol-password', '198.51.100.51');
    await holdAccount(email, '203.0.113.80');
    // A known device's wrong passwords reach the password check while the account waits...
    for (let i = 0; i < 10; i += 1) {
      expect((await attempt(laptop, email, `laptop-typo-${i}`)).status).toBe(401);
    }
    // ...ten times in 15 minutes; then it waits like any new device.
    expect((await attempt(laptop, email, 'carol-password')).status).toBe(429);
    expect((await attempt(desktop, email, 'carol-password')).status).toBe('signed in');
  }, 60_000);

  it('lets its owner in from an address held for too many failures', async () => {
    clock += DAY;
    const email = 'dave@example.com';
    await account(email, 'dave-password');
    const laptop = await knownDevice(email, 'dave-password', '198.51.100.60');
    // Someone at the same address (a café, an office) guesses another account's password: ten
    // failures, then 40 tries refused, which count against the address too.
    await holdAccount('erin@example.com', '203.0.113.90');
    const neighbour = at('203.0.113.90');
    const page = await openSignInPage(neighbour, config);
    for (let i = 0; i < 39; i += 1) {
      expect((await submitSignIn(neighbour, page, 'erin@example.com', 'wrong-guess-0')).res.status).toBe(429);
    }
    expect((await attempt(at('203.0.113.90'), email, 'dave-password')).status).toBe(429);
    laptop.opts.address = '203.0.113.90';
    expect((await attempt(laptop, email, 'dave-password')).status).toBe('signed in');
  }, 60_000);
});
