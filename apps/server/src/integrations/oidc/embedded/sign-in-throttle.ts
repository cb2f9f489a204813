import { createHash } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { signInThrottle } from '../../../db/schema/index';
import { normalizeEmail } from './local-accounts';

export type ThrottleOptions = {
  windowMs?: number;
  /** Failures per e-mail address, from anywhere, before each further try has to wait. */
  perAccount?: number;
  /** The wait before the first try over perAccount; it doubles with each further failure. */
  accountDelayMs?: number;
  /** The longest wait between two tries on one e-mail address. */
  maxAccountDelayMs?: number;
  /** Tries (failed or refused) allowed per client address within the window, for any e-mail. */
  perAddress?: number;
  /** Failures allowed per device cookie within the window; past them it gets no bypass. */
  perDevice?: number;
  now?: () => number;
};

export type Reservation = {
  /** 0: the password may be checked; otherwise the seconds until another try is allowed. */
  wait: number;
  /** The try came with a device cookie not locked out, so the account's delay did not apply. */
  knownDevice: boolean;
};

/**
 * Slows password guessing (OWASP's device cookies, on top of two counters):
 *
 * - Per e-mail address (from anywhere): the first `perAccount` failures go through; after them
 *   each try waits a delay after the previous one, 15 s at first and doubling with each further
 *   failure up to 5 minutes. The failures are forgotten a window's length after the last one
 *   (or at a sign-in that went through this delay).
 * - Per client address (for any e-mail): `perAddress` tries within the window, failed or
 *   refused, then every try from it is refused until the window ends. Refused tries count, or
 *   a guesser hammering an account's delay would race its owner for each slot that opens, for
 *   free: now it spends its address's tries in seconds and leaves the slot to the owner.
 * - A device cookie (a browser that signed in to this e-mail before, device-cookie.ts) skips the
 *   account's delay and its address's hold: a stranger guessing cannot keep the owner's own
 *   browser out. Its own failures are counted (`device:<hash of nonce>`); after `perDevice` in
 *   a window it is treated as a new device until the window ends, so a stolen cookie is worth
 *   at most that many guesses. Its tries still count against its address.
 *
 * The counters live in the database, so every instance sees them. The e-mail is stored hashed,
 * and a key exists whether or not the account does, so the throttle reveals nothing. An
 * account key's `windowStartedAt` is the time of its last counted try (its window slides); an
 * address's and a device's is the start of its window.
 *
 * An attempt is counted before its password is checked, in a transaction that locks every
 * counter it touches in one order (by key: account, address, device), so parallel guesses
 * cannot all pass one check before any of them is recorded.
 */
export function createSignInThrottle(db: Db, options: ThrottleOptions = {}) {
  const {
    windowMs = 15 * 60_000,
    perAccount = 10,
    accountDelayMs = 15_000,
    maxAccountDelayMs = 5 * 60_000,
    perAddress = 50,
    perDevice = 10,
    now = Date.now,
  } = options;
  const hash = (v: string) => createHash('sha256').update(v).digest('base64url');
  const keys = (email: string, address: string, device?: string) => ({
    account: `account:${hash(normalizeEmail(email))}`,
    address: `address:${hash(address)}`,
    device: device === undefined ? undefined : `device:${hash(device)}`,
  });
  /** The wait before the next try on an account with `failures` recent failures. */
  const accountDelay = (failures: number) =>
    failures < perAccount ? 0 : Math.min(accountDelayMs * 2 ** (failures - perAccount), maxAccountDelayMs);
  /** A counter whose window runs from its first try: past its window it starts again from nothing. */
  const fixedWindow = (row: { failures: number; windowStartedAt: Date }, at: number) =>
    at - row.windowStartedAt.getTime() >= windowMs
      ? { failures: 0, startedAt: new Date(at) }
      : { failures: row.failures, startedAt: row.windowStartedAt };

  return {
    /**
     * Counts an attempt as a failure before its password is checked (against the account, or
     * against the device when it comes with a valid device cookie's `device` nonce, and against
     * the address). A refused attempt counts against the address only.
     */
    async reserve(email: string, address: string, device?: string): Promise<Reservation> {
      const k = keys(email, address, device);
      const at = now();
      const all = [k.account, k.address, ...(k.device ? [k.device] : [])];
      return db.transaction(async (tx) => {
        await tx
          .insert(signInThrottle)
          .values(all.map((key) => ({ key, failures: 0, windowStartedAt: new Date(at) })))
          .onConflictDoNothing();
        const rows = await tx
          .select()
          .from(signInThrottle)
          .where(inArray(signInThrottle.key, all))
          .orderBy(signInThrottle.key)
          .for('update');
        const row = (key: string) => rows.find((r) => r.key === key)!;
        const save = (key: string, failures: number, windowStartedAt: Date) =>
          tx.update(signInThrottle).set({ failures, windowStartedAt }).where(eq(signInThrottle.key, key));

        const client = fixedWindow(row(k.address), at);
        const countClient = () => save(k.address, client.failures + 1, client.startedAt);

        const known = k.device ? fixedWindow(row(k.device), at) : undefined;
        if (k.device && known && known.failures < perDevice) {
          await save(k.device, known.failures + 1, known.startedAt);
          await countClient();
          return { wait: 0, knownDevice: true };
        }

        const account = row(k.account);
        const lastTry = account.windowStartedAt.getTime();
        const accountFailures = at - lastTry >= windowMs ? 0 : account.failures;
        let waitMs = 0;
        const delay = accountDelay(accountFailures);
        if (delay > 0) waitMs = Math.max(waitMs, lastTry + delay - at);
        const held = client.failures >= perAddress;
        if (held) waitMs = Math.max(waitMs, client.startedAt.getTime() + windowMs - at);
        if (waitMs > 0) {
          // Refused, and counted against the address (a held one stays held until its window ends).
          if (!held) await countClient();
          return { wait: Math.max(1, Math.ceil(waitMs / 1000)), knownDevice: false };
        }

        await save(k.account, accountFailures + 1, new Date(at));
        await countClient();
        return { wait: 0, knownDevice: false };
      });
    },

    /**
     * A successful sign-in takes its attempt off the address's counter and clears the counter it
     * went through: the account's, or its device's (a known device's sign-in leaves the account's
     * failures, which it never met; forgetting them would hand a guesser a fresh allowance each
     * time the owner signs in).
     */
    async recordSuccess(email: string, address: string, via: { knownDevice: boolean; device?: string }) {
      const k = keys(email, address, via.device);
      const cleared = [...(via.knownDevice ? [] : [k.account]), ...(k.device ? [k.device] : [])];
      if (cleared.length > 0) await db.delete(signInThrottle).where(inArray(signInThrottle.key, cleared));
      await db
        .update(signInThrottle)
        .set({ failures: sql`greatest(${signInThrottle.failures} - 1, 0)` })
        .where(eq(signInThrottle.key, k.address));
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
