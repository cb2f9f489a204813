import { createHash } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { signInThrottle } from '../../../db/schema/index';

export type ThrottleOptions = {
  windowMs?: number;
  /** Failures per e-mail address, from anywhere, before each further try has to wait. */
  perAccount?: number;
  /** The wait before the first try over perAccount; it doubles with each further failure. */
  accountDelayMs?: number;
  /** The longest wait between two tries on one e-mail address. */
  maxAccountDelayMs?: number;
  /** Failures allowed per client address within the window, for any e-mail. */
  perAddress?: number;
  now?: () => number;
};

/**
 * Slows password guessing, in two ways:
 *
 * - Per client address (for any e-mail): after `perAddress` failures within the window, further
 *   attempts from that address are refused until the window ends.
 * - Per e-mail address (from anywhere): the first `perAccount` failures go through; after them
 *   each try waits a delay after the previous one, 15 s at first and doubling with each further
 *   failure up to 5 minutes. The account is never locked: the right password goes through at
 *   the next free moment, so a stranger with wrong passwords can hold its owner up for at most
 *   the current delay, not the whole window, while guessing stays at most one try per delay.
 *   The failures are forgotten a window's length after the last one (or at a sign-in).
 *
 * The counters live in the database, so every instance sees them. The e-mail is stored hashed,
 * and a key exists whether or not the account does, so the throttle reveals nothing. An
 * account key's `windowStartedAt` is the time of its last counted try (its window slides); an
 * address key's is the start of its window.
 *
 * An attempt is counted before its password is checked, in a transaction that locks both
 * counters (account key first, then address key: one order for everyone), so parallel guesses
 * cannot all pass one check before any of them is recorded. A refused attempt is not counted.
 */
export function createSignInThrottle(db: Db, options: ThrottleOptions = {}) {
  const {
    windowMs = 15 * 60_000,
    perAccount = 10,
    accountDelayMs = 15_000,
    maxAccountDelayMs = 5 * 60_000,
    perAddress = 50,
    now = Date.now,
  } = options;
  const hash = (v: string) => createHash('sha256').update(v).digest('base64url');
  const keys = (email: string, address: string) => ({
    account: `account:${hash(email.trim().toLowerCase())}`,
    address: `address:${hash(address)}`,
  });
  /** The wait before the next try on an account with `failures` recent failures. */
  const accountDelay = (failures: number) =>
    failures < perAccount ? 0 : Math.min(accountDelayMs * 2 ** (failures - perAccount), maxAccountDelayMs);

  return {
    /**
     * Counts an attempt as a failure before its password is checked. Returns 0 when it may go
     * ahead (it stays counted unless recordSuccess follows); otherwise the seconds until
     * another attempt is allowed, and the refused attempt is not counted.
     */
    async reserve(email: string, address: string): Promise<number> {
      const k = keys(email, address);
      const at = now();
      return db.transaction(async (tx) => {
        await tx
          .insert(signInThrottle)
          .values([
            { key: k.account, failures: 0, windowStartedAt: new Date(at) },
            { key: k.address, failures: 0, windowStartedAt: new Date(at) },
          ])
          .onConflictDoNothing();
        const rows = await tx
          .select()
          .from(signInThrottle)
          .where(inArray(signInThrottle.key, [k.account, k.address]))
          .orderBy(signInThrottle.key)
          .for('update');
        const account = rows.find((r) => r.key === k.account)!;
        const client = rows.find((r) => r.key === k.address)!;

        // Past its window a counter starts again from nothing.
        const lastTry = account.windowStartedAt.getTime();
        const accountFailures = at - lastTry >= windowMs ? 0 : account.failures;
        const clientWindowOver = at - client.windowStartedAt.getTime() >= windowMs;
        const clientFailures = clientWindowOver ? 0 : client.failures;

        let waitMs = 0;
        const delay = accountDelay(accountFailures);
        if (delay > 0) waitMs = Math.max(waitMs, lastTry + delay - at);
        if (clientFailures >= perAddress)
          waitMs = Math.max(waitMs, client.windowStartedAt.getTime() + windowMs - at);
        if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));

        await tx
          .update(signInThrottle)
          .set({ failures: accountFailures + 1, windowStartedAt: new Date(at) })
          .where(inArray(signInThrottle.key, [k.account]));
        await tx
          .update(signInThrottle)
          .set({
            failures: clientFailures + 1,
            windowStartedAt: clientWindowOver ? new Date(at) : client.windowStartedAt,
          })
          .where(inArray(signInThrottle.key, [k.address]));
        return 0;
      });
    },

    /** A successful sign-in clears the account's counter and takes its attempt off the address's. */
    async recordSuccess(email: string, address: string) {
      const k = keys(email, address);
      await db.delete(signInThrottle).where(inArray(signInThrottle.key, [k.account]));
      await db
        .update(signInThrottle)
        .set({ failures: sql`greatest(${signInThrottle.failures} - 1, 0)` })
        .where(inArray(signInThrottle.key, [k.address]));
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
