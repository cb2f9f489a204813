import { authConfigResponseSchema } from '@gem/contracts/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  freePort,
  openSignInPage,
  submitSignIn,
  type AuthConfig,
} from '../../../test/embedded-sign-in';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { buildTestApp } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import type { Database } from '../../db/client';
import { createLocalAccounts } from '../../integrations/oidc/embedded/local-accounts';

/**
 * A burst of parallel password guesses, sent over real HTTP with one sign-in page (a failure
 * re-renders the form, so its CSRF token can be reused). Only as many guesses as the limit
 * may reach the password check (401); the rest are throttled (429). Each burst comes from its
 * own address (X-Forwarded-For, behind a trusted proxy).
 */

const PER_ACCOUNT = 5;
const PER_ADDRESS = 12;
const BURST = 40;

let database: Database;
let app: App;
let origin: string;
let config: AuthConfig;

async function burst(address: string, emailFor: (i: number) => string) {
  const browser = new Browser(origin, { address });
  const page = await openSignInPage(browser, config);
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) => submitSignIn(browser, page, emailFor(i), `wrong-guess-${i}`)),
  );
  const counts: Record<number, number> = {};
  for (const { res } of answers) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const base = testConfig();
  app = await buildTestApp({
    config: testConfig({
      trustProxy: 1,
      auth: { ...base.auth, publicUrl: origin, issuer: `${origin}/oidc`, audience: `${origin}/api` },
    }),
    database,
    seams: { identity: { throttle: { perAccount: PER_ACCOUNT, perAddress: PER_ADDRESS } } },
  });
  await app.listen({ port, host: '127.0.0.1' });
  config = authConfigResponseSchema.parse(await (await fetch(`${origin}/api/identity/auth-config`)).json());
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('the sign-in throttle under a burst of parallel guesses', () => {
  it('lets at most the per-account limit of guesses reach the password check', async () => {
    await createLocalAccounts(database.db).add({ email: 'victim@example.com', password: 'correct-horse' });
    const counts = await burst('203.0.113.1', () => 'victim@example.com');
    expect(counts).toEqual({ 401: PER_ACCOUNT, 429: BURST - PER_ACCOUNT });

    // The right password is refused too, from anywhere, for the account's wait.
    const browser = new Browser(origin, { address: '198.51.100.1' });
    const page = await openSignInPage(browser, config);
    const { res } = await submitSignIn(browser, page, 'victim@example.com', 'correct-horse');
    expect(res.status).toBe(429);
  });

  it('lets at most the per-address limit of guesses through, spread over many e-mails', async () => {
    const counts = await burst('203.0.113.2', (i) => `sprayed-${i}@example.com`);
    expect(counts).toEqual({ 401: PER_ADDRESS, 429: BURST - PER_ADDRESS });
    // The first burst's address spent its tries, refused ones included.
    expect(await burst('203.0.113.1', (i) => `sprayed-again-${i}@example.com`)).toEqual({ 429: BURST });
  });
});
