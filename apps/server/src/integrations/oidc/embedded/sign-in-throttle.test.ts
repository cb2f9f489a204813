import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/test-database';
import type { Database } from '../../../db/client';
import { createSignInThrottle } from './sign-in-throttle';

/**
 * The sign-in throttle on a real database, with an injected clock: the per-account limit slows
 * guessing down instead of locking the account; the per-address limit still refuses until its
 * window ends.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

let clock = Date.UTC(2026, 0, 5, 9, 0, 0);
const now = () => clock;
/** The throttle, with `reserve` answering the wait only (these tries come with no device cookie). */
const throttle = (overrides = {}) => {
  const t = createSignInThrottle(database.db, { now, perAccount: 10, perAddress: 50, ...overrides });
  return {
    reserve: async (email: string, address: string) => (await t.reserve(email, address)).wait,
    recordSuccess: (email: string, address: string) =>
      t.recordSuccess(email, address, { knownDevice: false }),
  };
};

/** A fresh client address for each test, so tests do not share the per-address counter. */
let addresses = 0;
const nextAddress = () => `198.51.100.${(addresses += 1)}`;

describe('the per-account limit', () => {
  it('lets the account owner in after a short wait, not after the whole window (issue 11)', async () => {
    const t = throttle();
    const attacker = nextAddress();
    for (let i = 0; i < 10; i += 1) expect(await t.reserve('victim@example.com', attacker)).toBe(0);
    // The 11th wrong password from the attacker is refused, but only for 15 seconds...
    expect(await t.reserve('victim@example.com', attacker)).toBe(15);
    // ...and so is the owner's right one, from anywhere, for the same 15 seconds at most.
    const owner = nextAddress();
    expect(await t.reserve('Victim@Example.com', owner)).toBe(15);
    clock += 15 * SECOND;
    expect(await t.reserve('victim@example.com', owner)).toBe(0);
    await t.recordSuccess('victim@example.com', owner);
    // Signed in: the account's failures are forgotten.
    expect(await t.reserve('victim@example.com', attacker)).toBe(0);
  });

  it('makes each further try wait twice as long, up to 5 minutes, whatever is tried meanwhile', async () => {
    const t = throttle();
    const email = 'slow@example.com';
    const from = nextAddress();
    for (let i = 0; i < 10; i += 1) expect(await t.reserve(email, from)).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const wait = await t.reserve(email, from);
      waits.push(wait);
      // Trying during the wait does not make it longer: refused tries count against the address only.
      clock += (wait - 1) * SECOND;
      expect(await t.reserve(email, from)).toBe(1);
      clock += SECOND;
      expect(await t.reserve(email, from)).toBe(0);
    }
    expect(waits).toEqual([15, 30, 60, 120, 240, 300, 300]);
  });

  it('forgets the failures a window after the last one', async () => {
    const t = throttle();
    const email = 'forgetful@example.com';
    const from = nextAddress();
    for (let i = 0; i < 10; i += 1) expect(await t.reserve(email, from)).toBe(0);
    expect(await t.reserve(email, from)).toBe(15);
    clock += 15 * MINUTE;
    for (let i = 0; i < 10; i += 1) expect(await t.reserve(email, from)).toBe(0);
    expect(await t.reserve(email, from)).toBe(15);
  });

  it('lets only the limit of parallel guesses through', async () => {
    const t = throttle({ perAccount: 5 });
    const from = nextAddress();
    const waits = await Promise.all(Array.from({ length: 30 }, () => t.reserve('burst@example.com', from)));
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    expect(waits.filter((w) => w === 15)).toHaveLength(25);
  });
});

describe('the per-address limit', () => {
  it('refuses an address that failed too often, for any e-mail, until its window ends', async () => {
    const t = throttle({ perAddress: 5 });
    const from = nextAddress();
    const windowStart = clock;
    for (let i = 0; i < 5; i += 1) {
      expect(await t.reserve(`sprayed-${i}@example.com`, from)).toBe(0);
      clock += MINUTE;
    }
    expect(await t.reserve('another@example.com', from)).toBe((windowStart + 15 * MINUTE - clock) / SECOND);
    // Another address is not affected.
    expect(await t.reserve('another@example.com', nextAddress())).toBe(0);
    clock = windowStart + 15 * MINUTE;
    expect(await t.reserve('another@example.com', from)).toBe(0);
  });

  it('counts refused tries too, so hammering an account’s delay spends the address’s tries (issue 25)', async () => {
    const t = throttle({ perAccount: 2, perAddress: 5 });
    const from = nextAddress();
    const windowStart = clock;
    expect(await t.reserve('held@example.com', from)).toBe(0);
    expect(await t.reserve('held@example.com', from)).toBe(0);
    for (let i = 0; i < 3; i += 1) expect(await t.reserve('held@example.com', from)).toBe(15);
    // Two failures and three refused tries: the address is held for any e-mail...
    expect(await t.reserve('other@example.com', from)).toBe(15 * 60);
    // ...and the account's slot, when it opens, is free for someone else.
    clock += 15 * SECOND;
    expect(await t.reserve('held@example.com', from)).toBe((windowStart + 15 * MINUTE - clock) / SECOND);
    expect(await t.reserve('held@example.com', nextAddress())).toBe(0);
  });
});
