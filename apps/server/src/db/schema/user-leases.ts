import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * One row per piece of work a user has running or recently started, by kind: AI calls ('ai':
 * the per-user rate, rows started in the last minute, and concurrency, rows not yet released)
 * and the CRM's reports and CSV exports ('crm-report': concurrency). Shared by every instance
 * (lib/user-leases.ts). A row whose instance died stops counting at expires_at. The table keeps
 * its first name: renaming it would break the instances still running during an upgrade.
 */
export const userLeases = pgTable(
  'ai_call_leases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the lease is for (LeaseKind). 'ai' for the rows of instances that predate kinds. */
    kind: text('kind', { enum: ['ai', 'crm-report'] })
      .notNull()
      .default('ai'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [index('ai_call_leases_user_started_idx').on(t.userId, t.startedAt)],
);
