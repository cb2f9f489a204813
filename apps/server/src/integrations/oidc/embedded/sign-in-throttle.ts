import { createHash } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { signInThrottle } from '../../../db/schema/index';

export type ThrottleOptions = {
  windowMs?: number;
  /** Failures allowed per e-mail address within the window, from anywhere. */
  perAccount?: number;
  /** Failures allowed per client address within the window, for any e-mail. */
  perAddress?: number;
  now?: () => number;
};

/**
 * Slows password guessing: after too many failures for one e-mail (from anywhere) or from one
 * client address (for any e-mail), further attempts are refused until the window ends. The
 * counters live in the database, so every instance sees them. The e-mail is stored hashed,
 * and a key exists whether or not the account does, so the throttle reveals nothing.
 *
 * An attempt is counted before its password is checked, in one statement that increments both
 * counters and returns them, so parallel guesses cannot all pass one check before any of them
 * is recorded: the attempt that takes a counter past its limit is refused.
 */
export function createSignInThrottle(db: Db, options: ThrottleOptions = {}) {
  const { windowMs = 15 * 60_000, perAccount = 10, perAddress = 50, now = Date.now } = options;
  const hash = (v: string) => createHash('sha256').update(v).digest('base64url');
  const keys = (email: string, address: string) => ({
    account: `account:${hash(email.trim().toLowerCase())}`,
    address: `address:${hash(address)}`,
  });
  // Takes back attempts that were counted but did not fail (refused, or signed in).
  const uncount = (keyList: string[]) =>
    db
      .update(signInThrottle)
      .set({ failures: sql`greatest(${signInThrottle.failures} - 1, 0)` })
      .where(inArray(signInThrottle.key, keyList));

  return {
    /**
     * Counts an attempt as a failure before its password is checked. Returns 0 when it may go
     * ahead (it stays counted unless recordSuccess follows); otherwise the seconds until
     * another attempt is allowed, and the refused attempt is not counted.
     */
    async reserve(email: string, address: string): Promise<number> {
      const k = keys(email, address);
      const at = new Date(now());
      const windowStart = new Date(now() - windowMs);
      // Always account key, then address key: concurrent statements lock rows in one order.
      const rows = await db
        .insert(signInThrottle)
        .values([
          { key: k.account, failures: 1, windowStartedAt: at },
          { key: k.address, failures: 1, windowStartedAt: at },
        ])
        .onConflictDoUpdate({
          target: signInThrottle.key,
          set: {
            // An attempt after the window has passed starts a new window.
            failures: sql`case when ${signInThrottle.windowStartedAt} <= ${windowStart} then 1 else ${signInThrottle.failures} + 1 end`,
            windowStartedAt: sql`case when ${signInThrottle.windowStartedAt} <= ${windowStart} then ${at} else ${signInThrottle.windowStartedAt} end`,
          },
        })
        .returning();
      let wait = 0;
      for (const row of rows) {
        const limit = row.key === k.account ? perAccount : perAddress;
        if (row.failures > limit) {
          const endsAt = row.windowStartedAt.getTime() + windowMs;
          wait = Math.max(wait, 1, Math.ceil((endsAt - now()) / 1000));
        }
      }
      if (wait > 0) await uncount([k.account, k.address]);
      return wait;
    },

    /** A successful sign-in clears the account's counter and takes its attempt off the address's. */
    async recordSuccess(email: string, address: string) {
      const k = keys(email, address);
      await db.delete(signInThrottle).where(inArray(signInThrottle.key, [k.account]));
      await uncount([k.address]);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
