import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/test-database';
import type { Database } from '../../../db/client';
import { createAdapterFactory, deleteExpired } from './adapter';
import { eq } from 'drizzle-orm';
import { localAccounts } from '../../../db/schema/index';
import { createLocalAccounts, hashPassword, needsRehash, verifyPassword } from './local-accounts';
import { loadProviderSecrets, publicKeysOf } from './secrets';
import { createSignInThrottle } from './sign-in-throttle';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('the provider adapter', () => {
  it('stores, finds, consumes, expires and revokes by grant', async () => {
    let clock = 1_700_000_000_000;
    const now = () => clock;
    const tokens = createAdapterFactory(database.db, now)('RefreshToken');
    const sessions = createAdapterFactory(database.db, now)('Session');
    await tokens.upsert('rt-1', { grantId: 'g-1', accountId: 'a' }, 60);
    await tokens.upsert('rt-2', { grantId: 'g-2', accountId: 'a' }, 600);
    await sessions.upsert('s-1', { uid: 'uid-1', accountId: 'a' }, 600);

    expect(await tokens.find('rt-1')).toMatchObject({ grantId: 'g-1' });
    expect(await sessions.findByUid('uid-1')).toMatchObject({ accountId: 'a' });
    // Models are separate name spaces.
    expect(await sessions.find('rt-1')).toBeUndefined();

    await tokens.consume('rt-2');
    expect((await tokens.find('rt-2'))?.consumed).toBeGreaterThan(0);

    clock += 61_000;
    expect(await tokens.find('rt-1')).toBeUndefined();
    await deleteExpired(database.db, now);
    expect(await createAdapterFactory(database.db, () => 0)('RefreshToken').find('rt-1')).toBeUndefined();

    await tokens.revokeByGrantId('g-2');
    expect(await tokens.find('rt-2')).toBeUndefined();
    await sessions.destroy('s-1');
    expect(await sessions.find('s-1')).toBeUndefined();
  });
});

describe('provider secrets', () => {
  it('are made once and then reused, by every instance', async () => {
    const [a, b] = await Promise.all([loadProviderSecrets(database.db), loadProviderSecrets(database.db)]);
    expect(b).toEqual(a);
    expect(await loadProviderSecrets(database.db)).toEqual(a);
    const [key] = publicKeysOf(a).keys;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
  });
});

describe('passwords', () => {
  it('are kept as salted scrypt hashes', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$65536\$8\$2\$/);
    expect(hash).not.toContain('correct');
    expect(await hashPassword('correct horse')).not.toBe(hash);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });

  it('made with weaker parameters are replaced at the next successful sign-in', async () => {
    const accounts = createLocalAccounts(database.db);
    const { id } = await accounts.add({ email: 'old-hash@example.com', password: 'an-old-password' });
    const weak = await hashPassword('an-old-password', { N: 2 ** 14, r: 8, p: 1, keyLength: 32 });
    await database.db.update(localAccounts).set({ passwordHash: weak }).where(eq(localAccounts.id, id));
    const storedHash = async () =>
      (await database.db.select().from(localAccounts).where(eq(localAccounts.id, id)))[0]!.passwordHash;

    expect(await accounts.authenticate('old-hash@example.com', 'wrong-password')).toBeUndefined();
    expect(await storedHash()).toBe(weak);
    expect(await accounts.authenticate('old-hash@example.com', 'an-old-password')).toMatchObject({ id });
    const upgraded = await storedHash();
    expect(upgraded).toMatch(/^scrypt\$65536\$8\$2\$/);
    expect(needsRehash(upgraded)).toBe(false);
    expect(await accounts.authenticate('old-hash@example.com', 'an-old-password')).toMatchObject({ id });
  });
});

describe('the sign-in throttle', () => {
  it('counts attempts per e-mail and per address within a window, then starts afresh', async () => {
    let clock = 1_700_000_000_000;
    const t = createSignInThrottle(database.db, {
      perAccount: 2,
      perAddress: 3,
      windowMs: 60_000,
      now: () => clock,
    });
    const throttle = {
      reserve: async (email: string, address: string) => (await t.reserve(email, address)).wait,
    };
    expect(await throttle.reserve('Ann@example.com', '10.0.0.1')).toBe(0);
    expect(await throttle.reserve('ann@example.com', '10.0.0.2')).toBe(0);
    // Two failures for Ann, from two addresses: her account waits 15 s, wherever she comes from.
    expect(await throttle.reserve('ann@example.com', '10.0.0.9')).toBe(15);
    // That refused attempt counted against 10.0.0.9: two more tries, and it is held.
    expect(await throttle.reserve('bob@example.com', '10.0.0.9')).toBe(0);
    expect(await throttle.reserve('carl@example.com', '10.0.0.9')).toBe(0);
    // Three tries from one address hold it for every e-mail.
    expect(await throttle.reserve('erin@example.com', '10.0.0.9')).toBeGreaterThan(0);

    clock += 61_000;
    expect(await throttle.reserve('ann@example.com', '10.0.0.1')).toBe(0);
    await t.recordSuccess('ann@example.com', '10.0.0.1', { knownDevice: false });
    // A success clears the account's counter and does not count against the address.
    expect(await throttle.reserve('ann@example.com', '10.0.0.1')).toBe(0);
    expect(await throttle.reserve('ann@example.com', '10.0.0.1')).toBe(0);
    expect(await throttle.reserve('fred@example.com', '10.0.0.1')).toBe(0);
    expect(await throttle.reserve('gail@example.com', '10.0.0.1')).toBeGreaterThan(0);
  });

  it('lets only the limit through when many attempts arrive at once', async () => {
    const throttle = createSignInThrottle(database.db, { perAccount: 4, perAddress: 1000 });
    const waits = await Promise.all(
      Array.from(
        { length: 40 },
        async (_, i) => (await throttle.reserve('race@example.com', `10.1.0.${i}`)).wait,
      ),
    );
    expect(waits.filter((w) => w === 0)).toHaveLength(4);
    expect(waits.filter((w) => w > 0)).toHaveLength(36);
  });
});
