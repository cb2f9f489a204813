import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Administration (issue 30): access requests, the usage rollups, allowances, model prices, the
 * admin's settings and the audit log.
 */

/** A request for access sent from the Access Denied page; one pending per user. */
export const accessRequests = pgTable(
  'access_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    note: text('note'),
    status: text('status', { enum: ['pending', 'approved', 'declined'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    uniqueIndex('access_requests_one_pending_key')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('access_requests_status_created_idx').on(t.status, t.createdAt.desc()),
    index('access_requests_user_created_idx').on(t.userId, t.createdAt.desc()),
    check('access_requests_status_check', sql`${t.status} in ('pending', 'approved', 'declined')`),
  ],
);

/**
 * Usage per UTC day, user, tool, model and ending, kept by a trigger on `generations` as each
 * record is written (migration 0020): the usage page and the allowances read these, never the
 * records. error_code and model are '' when there is none, so they can be in the key.
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    day: date('day').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    model: text('model').notNull().default(''),
    outcome: text('outcome').notNull(),
    errorCode: text('error_code').notNull().default(''),
    generations: integer('generations').notNull().default(0),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull().default(0),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull().default(0),
    latencyMsSum: bigint('latency_ms_sum', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.userId, t.tool, t.model, t.outcome, t.errorCode] }),
    index('usage_daily_user_day_idx').on(t.userId, t.day),
  ],
);

/**
 * Latency histogram per UTC day, user and tool: bucket k counts calls that took at most
 * 50 ms × 1.1^k (k capped at 120), so p50 and p95 over any range are read from the counts,
 * within 10 % (gem_latency_bucket in migration 0020; contracts/admin-usage.ts latencyOfBucket).
 */
export const usageLatencyDaily = pgTable(
  'usage_latency_daily',
  {
    day: date('day').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    bucket: smallint('bucket').notNull(),
    generations: integer('generations').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.userId, t.tool, t.bucket] }),
    // A person's buckets (the person filter), and a table row's days (migration 0021).
    index('usage_latency_daily_user_tool_day_idx').on(t.userId, t.tool, t.day),
  ],
);

/**
 * Usage per UTC day, tool, model and ending, without the person (migration 0021): a few dozen
 * rows a day whatever the number of people, for the usage page's totals, series, models and
 * failures when no person is chosen. Kept by the same triggers as usage_daily.
 */
export const usageToolDaily = pgTable(
  'usage_tool_daily',
  {
    day: date('day').notNull(),
    tool: text('tool').notNull(),
    model: text('model').notNull().default(''),
    outcome: text('outcome').notNull(),
    errorCode: text('error_code').notNull().default(''),
    generations: integer('generations').notNull().default(0),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull().default(0),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull().default(0),
    latencyMsSum: bigint('latency_ms_sum', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.tool, t.model, t.outcome, t.errorCode] })],
);

/**
 * Latency histogram per UTC day and tool, without the person (migration 0021); tool '' counts
 * every tool, so the page's p50 and p95 read one row per bucket a day.
 */
export const usageToolLatencyDaily = pgTable(
  'usage_tool_latency_daily',
  {
    day: date('day').notNull(),
    tool: text('tool').notNull(),
    bucket: smallint('bucket').notNull(),
    generations: integer('generations').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tool, t.day, t.bucket] })],
);

/**
 * Usage per ISO week (its Monday, UTC), person, tool and model (migration 0021): the top users
 * and the weekly table read whole weeks here and only the range's cut weeks from usage_daily.
 */
export const usagePersonWeekly = pgTable(
  'usage_person_weekly',
  {
    week: date('week').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    model: text('model').notNull().default(''),
    generations: integer('generations').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    cancelled: integer('cancelled').notNull().default(0),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull().default(0),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.week, t.userId, t.tool, t.model] }),
    index('usage_person_weekly_user_week_idx').on(t.userId, t.week),
  ],
);

/**
 * Per ISO week (its Monday, UTC), person and tool, every model together (migration 0023): one row
 * per row of the weekly usage table, so the table's row count per week is a count of these index
 * entries, and the filters' choices (who used which tool) are read here.
 */
export const usagePersonToolWeekly = pgTable(
  'usage_person_tool_weekly',
  {
    week: date('week').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    generations: integer('generations').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.week, t.userId, t.tool] }),
    index('usage_person_tool_weekly_user_week_idx').on(t.userId, t.week),
  ],
);

/**
 * Per ISO week, person and model, every tool together (migration 0023): the top users (priced
 * per model) read whole weeks here when no tool is chosen, a third of usage_person_weekly's rows.
 */
export const usagePersonModelWeekly = pgTable(
  'usage_person_model_weekly',
  {
    week: date('week').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    model: text('model').notNull().default(''),
    generations: integer('generations').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    cancelled: integer('cancelled').notNull().default(0),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull().default(0),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.week, t.userId, t.model] }),
    index('usage_person_model_weekly_user_week_idx').on(t.userId, t.week),
  ],
);

/** A person's own monthly token allowance, over the default (admin_settings). */
export const userAllowances = pgTable('user_allowances', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  monthlyTokens: bigint('monthly_tokens', { mode: 'number' }).notNull(),
  setBy: uuid('set_by').references(() => users.id, { onDelete: 'set null' }),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The price of a model's tokens, per 1,000 in and out, set by an administrator. */
export const modelPrices = pgTable('model_prices', {
  model: text('model').primaryKey(),
  inputPer1k: numeric('input_per_1k', { precision: 14, scale: 6 }).notNull(),
  outputPer1k: numeric('output_per_1k', { precision: 14, scale: 6 }).notNull(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The administrators' settings: one row (id is always true). */
export const adminSettings = pgTable(
  'admin_settings',
  {
    id: boolean('id').primaryKey().default(true),
    /** Tokens (in and out) each user may use in a calendar month (UTC); null: no limit. */
    defaultMonthlyTokens: bigint('default_monthly_tokens', { mode: 'number' }),
    auditRetentionDays: integer('audit_retention_days').notNull().default(365),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('admin_settings_one_row', sql`${t.id}`)],
);

/**
 * What happened, for administrators: sign-ins (never a password), access changes and every
 * admin action. The actor's e-mail is copied in, so an entry still says who after the user is
 * gone.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** What it was about, in words (an e-mail, a model, a setting). */
    target: text('target'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at.desc()),
    index('audit_events_action_at_idx').on(t.action, t.at.desc()),
  ],
);
