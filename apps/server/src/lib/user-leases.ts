import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { userLeases } from '../db/schema/index';
import { AppError } from './app-error';

/**
 * Per-user limits on work that holds resources while it runs: at most `concurrent` leases of a
 * kind running at once, and optionally at most `perMinute` started in any 60 s. The leases are
 * rows (ai_call_leases), so every instance sees the same numbers; a transaction-scoped advisory
 * lock per user makes the check and the new lease one step, so two instances cannot both take
 * the last slot. A lease whose instance died stops counting at its expiry. The AI calls
 * (lib/ai/ai-call-limiter.ts) and the CRM reports and exports use it, each with its own kind.
 */

export type LeaseKind = 'ai' | 'crm-report';

export type LeaseLimits = { concurrent: number; perMinute?: number };

export type UserLease = { release(): Promise<void> };

/** What a refused user is told: each a full sentence. */
export type LeaseRefusals = {
  /** `running` leases of the kind are running, the limit. */
  running(running: number): string;
  /** `perMinute` were started in the last minute; one leaves the window in `wait` seconds. */
  recent?(perMinute: number, wait: number): string;
};

// Advisory lock namespace for these locks (the second key is the user's hash). One lock per user
// for every kind: taking a lease is a few statements, and the kinds never wait on each other long.
const LOCK_CLASS = 7_415_004;
const WINDOW = sql`interval '60 seconds'`;
// No one knows when a running lease ends; this is a reasonable time to look again.
const CONCURRENCY_RETRY_SECONDS = 5;

export function createLeaseLimiter({
  db,
  kind,
  limits,
  leaseMs,
  refusals,
  onReleaseFailed,
}: {
  db: Db;
  kind: LeaseKind;
  limits: LeaseLimits;
  /** After this a lease stops counting even if never released (its instance died). */
  leaseMs: number;
  refusals: LeaseRefusals;
  onReleaseFailed?: (err: unknown) => void;
}) {
  const ofUser = (userId: string) => and(eq(userLeases.userId, userId), eq(userLeases.kind, kind));

  return {
    /** Takes a lease for one piece of work, or throws a 429 AppError with Retry-After. */
    async acquire(userId: string): Promise<UserLease> {
      const leaseId = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${userId}))`);
        // Forget this user's leases that no longer count for anything (of every kind).
        await tx
          .delete(userLeases)
          .where(
            and(
              eq(userLeases.userId, userId),
              lt(userLeases.startedAt, sql`now() - ${WINDOW}`),
              or(isNotNull(userLeases.releasedAt), lt(userLeases.expiresAt, sql`now()`)),
            ),
          );
        const [counts] = await tx
          .select({
            recent: sql<number>`count(*) filter (where ${userLeases.startedAt} > now() - ${WINDOW})`.mapWith(
              Number,
            ),
            running:
              sql<number>`count(*) filter (where ${userLeases.releasedAt} is null and ${userLeases.expiresAt} > now())`.mapWith(
                Number,
              ),
          })
          .from(userLeases)
          .where(ofUser(userId));
        const recent = counts?.recent ?? 0;
        const running = counts?.running ?? 0;

        if (limits.perMinute !== undefined && recent >= limits.perMinute) {
          // A slot frees when the lease that would put us back under the limit leaves the window.
          const [oldest] = await tx
            .select({
              wait: sql<number>`ceil(extract(epoch from (${userLeases.startedAt} + ${WINDOW} - now())))`.mapWith(
                Number,
              ),
            })
            .from(userLeases)
            .where(and(ofUser(userId), sql`${userLeases.startedAt} > now() - ${WINDOW}`))
            .orderBy(userLeases.startedAt)
            .offset(recent - limits.perMinute)
            .limit(1);
          const wait = Math.max(1, oldest?.wait ?? 60);
          const words = refusals.recent?.(limits.perMinute, wait) ?? refusals.running(running);
          throw new AppError(429, 'too_many_requests', words, wait);
        }
        if (running >= limits.concurrent) {
          throw new AppError(429, 'too_many_requests', refusals.running(running), CONCURRENCY_RETRY_SECONDS);
        }
        const [lease] = await tx
          .insert(userLeases)
          .values({
            userId,
            kind,
            expiresAt: sql`now() + ${`${Math.ceil(leaseMs / 1000)} seconds`}::interval`,
          })
          .returning({ id: userLeases.id });
        if (!lease) throw new Error('lease insert returned no row');
        return lease.id;
      });

      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          try {
            await db
              .update(userLeases)
              .set({ releasedAt: sql`now()` })
              .where(eq(userLeases.id, leaseId));
          } catch (err) {
            // It stops counting at expires_at anyway.
            onReleaseFailed?.(err);
          }
        },
      };
    },
  };
}

export type LeaseLimiter = ReturnType<typeof createLeaseLimiter>;
