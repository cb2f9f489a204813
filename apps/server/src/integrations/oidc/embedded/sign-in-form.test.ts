import { authConfigResponseSchema } from '@gem/contracts/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  freePort,
  openSignInPage,
  submitSignIn,
  type AuthConfig,
} from '../../../../test/embedded-sign-in';
import { buildTestApp } from '../../../../test/test-app';
import { testConfig } from '../../../../test/test-config';
import { createTestDatabase } from '../../../../test/test-database';
import type { App } from '../../../app';
import type { Database } from '../../../db/client';
import { createLocalAccounts } from './local-accounts';
import { escapeHtml } from './pages';

/**
 * The embedded sign-in form over real HTTP, with the throttle on an injected clock: whatever
 * is typed into it gets the form's own answers, never a 500.
 */

const PER_ACCOUNT = 3;
let clock = Date.UTC(2026, 0, 5, 9, 0, 0);

let database: Database;
let app: App;
let origin: string;
let config: AuthConfig;

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
    seams: { identity: { throttle: { perAccount: PER_ACCOUNT, now: () => clock } } },
  });
  await app.listen({ port, host: '127.0.0.1' });
  config = authConfigResponseSchema.parse(await (await fetch(`${origin}/api/identity/auth-config`)).json());
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** Posts the sign-in form with a body written byte for byte (to send what a browser would not). */
async function postRaw(browser: Browser, page: { action?: string; csrf?: string }, body: string) {
  return browser.follow(page.action ?? '/missing', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: browser.origin },
    body: `csrf=${encodeURIComponent(page.csrf ?? '')}&${body}`,
  });
}

describe('an e-mail no account can have', () => {
  it.each([
    ['a NUL character', 'ann\u0000@example.com'],
    ['a NUL character alone', '\u0000'],
    ['an over-long address', `${'a'.repeat(5_000)}@example.com`],
  ])('with %s is a wrong e-mail or password (401), the e-mail kept', async (_what, email) => {
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, config);
    const { res } = await submitSignIn(browser, page, email, 'correct-horse');
    const html = await res.text();
    expect(res.status).toBe(401);
    expect(html).toContain('Invalid email or password');
    expect(html).toContain(`value="${escapeHtml(email.slice(0, 320))}"`);
  });

  it.each([
    ['half an emoji (a lone surrogate, percent-encoded)', 'email=ann%ED%A0%80%40example.com'],
    ['half an emoji (its first bytes only)', 'email=ann%F0%9F%40example.com'],
    ['a NUL byte in a raw body', 'email=ann%00%40example.com'],
  ])('with %s is a wrong e-mail or password (401)', async (_what, field) => {
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, config);
    const { res } = await postRaw(browser, page, `${field}&password=correct-horse`);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Invalid email or password');
  });
});

describe('the form', () => {
  it('says what it expects when sent something else than a form (415)', async () => {
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, config);
    const res = await browser.request(page.action ?? '/missing', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ csrf: page.csrf, email: 'ann@example.com', password: 'correct-horse' }),
    });
    expect(res.status).toBe(415);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('unsupported_media_type');
    expect(error.message).toContain('application/x-www-form-urlencoded');
    expect(error.message).not.toContain('JSON');
  });
});

describe('repeated wrong passwords for one account', () => {
  it('slow the account down for seconds, then let the right password in', async () => {
    await createLocalAccounts(database.db).add({ email: 'ann@example.com', password: 'correct-horse' });
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, config);
    for (let i = 0; i < PER_ACCOUNT; i += 1) {
      expect((await submitSignIn(browser, page, 'ann@example.com', `guess-${i}`)).res.status).toBe(401);
    }
    const held = await submitSignIn(browser, page, 'ann@example.com', 'correct-horse');
    expect(held.res.status).toBe(429);
    expect(held.res.headers.get('retry-after')).toBe('15');
    expect(await held.res.text()).toContain('Too many failed sign-in attempts. Try again in 15 seconds.');

    clock += 15_000;
    const signedIn = await submitSignIn(browser, page, 'ann@example.com', 'correct-horse');
    expect(new URL(signedIn.url).searchParams.get('code')).toBeTruthy();
  });
});
