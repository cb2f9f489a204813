import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Background work that runs once across GEM instances (lib/scheduler.ts): one row per task.
 * An instance runs a task only while it holds the row's lease; a lease that is not renewed
 * (its instance died) expires, and another instance takes the task over.
 */
export const scheduledTasks = pgTable('scheduled_tasks', {
  name: text('name').primaryKey(),
  /** The instance holding the lease; null when the task is not running. */
  leasedBy: text('leased_by'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  /** Why the last run failed, as a plain message (details go to the server log); null after a success. */
  lastError: text('last_error'),
});
