import { ALLOWANCE_EXHAUSTED_MESSAGE } from '@gem/contracts/admin-allowances';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adminSettings, usageDaily, userAllowances } from '../../db/schema/index';
import { AppError } from '../app-error';

/**
 * The monthly token allowance (issue 30): a person's own (`user_allowances`), else the
 * administrators' default (`admin_settings`), null meaning no limit; against the tokens (in and
 * out) of their calls this calendar month (UTC), read from `usage_daily`, which a trigger keeps
 * as each call is recorded. Both are rows, so every instance reads the same figures. A call is
 * checked as it begins and counted as it is recorded: calls already in flight can take a person
 * past the allowance, never more.
 */

export type Allowance = {
  /** null: no limit. */
  monthlyTokens: number | null;
  usedTokens: number;
  /** null: no limit; never below 0. */
  remainingTokens: number | null;
  /** The first of next month, 00:00 UTC. */
  resetsAt: Date;
};

/** The first day of `now`'s month (UTC), 00:00. */
export function monthStartOf(now: number): Date {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

/** The first day of the month after `now`'s (UTC), 00:00: when the count starts again. */
export function nextMonthStartOf(now: number): Date {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

/** A date as usage_daily's `day` column holds it: YYYY-MM-DD. */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The user's allowance and their month so far, in one round trip. */
export async function readAllowance(db: Db, userId: string, now: number): Promise<Allowance> {
  const since = isoDay(monthStartOf(now));
  const [row] = await db
    .select({
      own: sql<
        string | null
      >`(select ${userAllowances.monthlyTokens} from ${userAllowances} where ${eq(userAllowances.userId, userId)})`,
      fallback: sql<
        string | null
      >`(select ${adminSettings.defaultMonthlyTokens} from ${adminSettings} where ${adminSettings.id})`,
      used: sql<string>`(select coalesce(sum(${usageDaily.promptTokens} + ${usageDaily.completionTokens}), 0) from ${usageDaily} where ${and(eq(usageDaily.userId, userId), gte(usageDaily.day, since))})`,
    })
    .from(sql`(select 1) as one`);
  const own = row?.own ?? null;
  const fallback = row?.fallback ?? null;
  const monthlyTokens = own !== null ? Number(own) : fallback !== null ? Number(fallback) : null;
  const usedTokens = Number(row?.used ?? 0);
  return {
    monthlyTokens,
    usedTokens,
    remainingTokens: monthlyTokens === null ? null : Math.max(0, monthlyTokens - usedTokens),
    resetsAt: nextMonthStartOf(now),
  };
}

/** Throws 429 allowance_exhausted when the month's tokens have reached the allowance. */
export function assertAllowanceLeft(allowance: Allowance): void {
  if (allowance.monthlyTokens !== null && allowance.usedTokens >= allowance.monthlyTokens) {
    // No Retry-After: the wait is until an administrator raises it or the month ends, and a
    // client that honours Retry-After should not wait out the month.
    throw new AppError(429, 'allowance_exhausted', ALLOWANCE_EXHAUSTED_MESSAGE);
  }
}
