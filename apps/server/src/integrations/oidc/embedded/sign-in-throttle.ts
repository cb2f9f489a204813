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
 */
export function createSignInThrottle(db: Db, options: ThrottleOptions = {}) {
  const { windowMs = 15 * 60_000, perAccount = 10, perAddress = 50, now = Date.now } = options;
  const hash = (v: string) => createHash('sha256').update(v).digest('base64url');
  const keys = (email: string, address: string) => ({
    account: `account:${hash(email.trim().toLowerCase())}`,
    address: `address:${hash(address)}`,
  });

  return {
    /** Seconds until another attempt is allowed; 0 when it is allowed now. */
    async retryAfterSeconds(email: string, address: string): Promise<number> {
      const k = keys(email, address);
      const rows = await db
        .select()
        .from(signInThrottle)
        .where(inArray(signInThrottle.key, [k.account, k.address]));
      let wait = 0;
      for (const row of rows) {
        const limit = row.key === k.account ? perAccount : perAddress;
        const endsAt = row.windowStartedAt.getTime() + windowMs;
        if (row.failures >= limit && endsAt > now())
          wait = Math.max(wait, Math.ceil((endsAt - now()) / 1000));
      }
      return wait;
    },

    async recordFailure(email: string, address: string) {
      const at = new Date(now());
      const windowStart = new Date(now() - windowMs);
      for (const key of Object.values(keys(email, address))) {
        // A failure after the window has passed starts a new window.
        await db
          .insert(signInThrottle)
          .values({ key, failures: 1, windowStartedAt: at })
          .onConflictDoUpdate({
            target: signInThrottle.key,
            set: {
              failures: sql`case when ${signInThrottle.windowStartedAt} <= ${windowStart} then 1 else ${signInThrottle.failures} + 1 end`,
              windowStartedAt: sql`case when ${signInThrottle.windowStartedAt} <= ${windowStart} then ${at} else ${signInThrottle.windowStartedAt} end`,
            },
          });
      }
    },

    /** A successful sign-in clears the account's counter (not the address's). */
    async recordSuccess(email: string, address: string) {
      await db.delete(signInThrottle).where(inArray(signInThrottle.key, [keys(email, address).account]));
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
