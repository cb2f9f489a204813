import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { aiCallLeases } from '../../db/schema/index';
import { AppError } from '../app-error';

/**
 * Per-user limits on AI calls: at most `perMinute` started in any 60 s, and at most
 * `concurrent` running at once. The count lives in PostgreSQL (ai_call_leases), so every
 * instance sees the same numbers; a transaction-scoped advisory lock per user makes the
 * check and the new lease one step, so two instances cannot both take the last slot.
 */

export type AiCallLimits = { perMinute: number; concurrent: number };

export type AiCallLease = { release(): Promise<void> };

// Advisory lock namespace for these locks (the second key is the user's hash).
const LOCK_CLASS = 7_415_004;
const WINDOW = sql`interval '60 seconds'`;
// No one knows when a running call ends; this is a reasonable time to look again.
const CONCURRENCY_RETRY_SECONDS = 5;

export function createAiCallLimiter({
  db,
  limits,
  leaseMs,
  onReleaseFailed,
}: {
  db: Db;
  limits: AiCallLimits;
  /** After this a lease stops counting even if never released (its instance died). */
  leaseMs: number;
  onReleaseFailed?: (err: unknown) => void;
}) {
  return {
    /** Takes a slot for one AI call, or throws a 429 AppError with Retry-After. */
    async acquire(userId: string): Promise<AiCallLease> {
      const leaseId = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${userId}))`);
        // Forget this user's leases that no longer count for anything.
        await tx
          .delete(aiCallLeases)
          .where(
            and(
              eq(aiCallLeases.userId, userId),
              lt(aiCallLeases.startedAt, sql`now() - ${WINDOW}`),
              or(isNotNull(aiCallLeases.releasedAt), lt(aiCallLeases.expiresAt, sql`now()`)),
            ),
          );
        const [counts] = await tx
          .select({
            recent:
              sql<number>`count(*) filter (where ${aiCallLeases.startedAt} > now() - ${WINDOW})`.mapWith(
                Number,
              ),
            running:
              sql<number>`count(*) filter (where ${aiCallLeases.releasedAt} is null and ${aiCallLeases.expiresAt} > now())`.mapWith(
                Number,
              ),
          })
          .from(aiCallLeases)
          .where(eq(aiCallLeases.userId, userId));
        const recent = counts?.recent ?? 0;
        const running = counts?.running ?? 0;

        if (recent >= limits.perMinute) {
          // A slot frees when the call that would put us back under the limit leaves the window.
          const [oldest] = await tx
            .select({
              wait: sql<number>`ceil(extract(epoch from (${aiCallLeases.startedAt} + ${WINDOW} - now())))`.mapWith(
                Number,
              ),
            })
            .from(aiCallLeases)
            .where(and(eq(aiCallLeases.userId, userId), sql`${aiCallLeases.startedAt} > now() - ${WINDOW}`))
            .orderBy(aiCallLeases.startedAt)
            .offset(recent - limits.perMinute)
            .limit(1);
          const wait = Math.max(1, oldest?.wait ?? 60);
          throw new AppError(
            429,
            'too_many_requests',
            `You have used the AI tools ${limits.perMinute} times in the last minute. Please try again in ${wait} seconds.`,
            wait,
          );
        }
        if (running >= limits.concurrent) {
          throw new AppError(
            429,
            'too_many_requests',
            `You already have ${running} AI requests running. Wait for one to finish, then try again.`,
            CONCURRENCY_RETRY_SECONDS,
          );
        }
        const [lease] = await tx
          .insert(aiCallLeases)
          .values({ userId, expiresAt: sql`now() + ${`${Math.ceil(leaseMs / 1000)} seconds`}::interval` })
          .returning({ id: aiCallLeases.id });
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
              .update(aiCallLeases)
              .set({ releasedAt: sql`now()` })
              .where(eq(aiCallLeases.id, leaseId));
          } catch (err) {
            // It stops counting at expires_at anyway.
            onReleaseFailed?.(err);
          }
        },
      };
    },
  };
}

export type AiCallLimiter = ReturnType<typeof createAiCallLimiter>;
