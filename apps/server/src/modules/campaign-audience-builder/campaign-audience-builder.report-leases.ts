import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Metrics } from '../../lib/metrics';
import { createLeaseLimiter, type UserLease } from '../../lib/user-leases';

/**
 * The user's report slots. Reading a report holds the database (on PGlite, the event loop) for a
 * while: a user gets a few report pages and CSV exports at once, across instances, and a clear
 * 429 past that.
 */

/** Report pages and CSV exports one user may have running at once, on every instance together. */
export const REPORTS_AT_ONCE = 2;
/**
 * A report's or an export's lease: it stops counting after this even when its instance died,
 * and an export still running then (a client that stopped reading) is cut off.
 */
export const REPORT_LEASE_MS = 10 * 60_000;

export const reportsRunning = (running: number) =>
  `You already have ${running} reports or CSV exports running. Wait for one to finish, then try again.`;

/** Takes one of the user's report slots, or throws the 429 (counted for an export). */
export type ReportLeases = (userId: string, kind: 'page' | 'export') => Promise<UserLease>;

export function createReportLeases({
  db,
  metrics,
}: {
  /** Where the per-user report leases are counted (lib/user-leases.ts). */
  db: Db;
  metrics?: Pick<Metrics, 'crmExport'> | undefined;
}): ReportLeases {
  const reportLeases = createLeaseLimiter({
    db,
    kind: 'crm-report',
    limits: { concurrent: REPORTS_AT_ONCE },
    leaseMs: REPORT_LEASE_MS,
    refusals: { running: reportsRunning },
  });

  return async function reportLease(userId, kind) {
    try {
      return await reportLeases.acquire(userId);
    } catch (err) {
      if (kind === 'export' && err instanceof AppError && err.statusCode === 429) {
        metrics?.crmExport('refused');
      }
      throw err;
    }
  };
}
