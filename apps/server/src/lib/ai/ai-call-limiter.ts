import type { Db } from '../../db/client';
import { createLeaseLimiter, type UserLease } from '../user-leases';

/**
 * Per-user limits on AI calls: at most `perMinute` started in any 60 s, and at most
 * `concurrent` running at once, counted in the database for every instance (lib/user-leases.ts,
 * leases of kind 'ai').
 */

export type AiCallLimits = { perMinute: number; concurrent: number };

export type AiCallLease = UserLease;

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
  return createLeaseLimiter({
    db,
    kind: 'ai',
    limits,
    leaseMs,
    onReleaseFailed,
    refusals: {
      recent: (perMinute, wait) =>
        `You have used the AI tools ${perMinute} times in the last minute. Please try again in ${wait} seconds.`,
      running: (running) =>
        `You already have ${running} AI requests running. Wait for one to finish, then try again.`,
    },
  });
}

export type AiCallLimiter = ReturnType<typeof createAiCallLimiter>;
