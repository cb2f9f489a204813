import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/test-database';
import type { Database } from '../../../db/client';
import { createAdapterFactory, deleteExpired } from './adapter';
import { hashPassword, verifyPassword } from './local-accounts';
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
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('correct');
    expect(await hashPassword('correct horse')).not.toBe(hash);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });
});

describe('the sign-in throttle', () => {
  it('counts failures per e-mail and per address within a window, then starts afresh', async () => {
    let clock = 1_700_000_000_000;
    const throttle = createSignInThrottle(database.db, {
      perAccount: 2,
      perAddress: 3,
      windowMs: 60_000,
      now: () => clock,
    });
    await throttle.recordFailure('Ann@example.com', '10.0.0.1');
    expect(await throttle.retryAfterSeconds('ann@example.com', '10.0.0.1')).toBe(0);
    await throttle.recordFailure('ann@example.com', '10.0.0.2');
    // Two failures for Ann, from two addresses: her account waits, wherever she comes from.
    expect(await throttle.retryAfterSeconds('ann@example.com', '10.0.0.9')).toBe(60);
    expect(await throttle.retryAfterSeconds('bob@example.com', '10.0.0.1')).toBe(0);

    // Three failures from one address lock it for every e-mail.
    await throttle.recordFailure('bob@example.com', '10.0.0.1');
    await throttle.recordFailure('carl@example.com', '10.0.0.1');
    expect(await throttle.retryAfterSeconds('dora@example.com', '10.0.0.1')).toBeGreaterThan(0);

    clock += 61_000;
    expect(await throttle.retryAfterSeconds('ann@example.com', '10.0.0.1')).toBe(0);
    await throttle.recordFailure('ann@example.com', '10.0.0.5');
    expect(await throttle.retryAfterSeconds('ann@example.com', '10.0.0.5')).toBe(0);
    await throttle.recordSuccess('ann@example.com', '10.0.0.5');
  });
});
