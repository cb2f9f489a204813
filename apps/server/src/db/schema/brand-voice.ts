import { sql } from 'drizzle-orm';
import { check, date, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The brand voice (issue 31, migration 0022): the profile's versions and the style check's
 * rollup per day and tool. A generation's version and check are columns of `generations`.
 */

/** Every save of the profile; the one in force is the highest version. */
export const brandProfileVersions = pgTable(
  'brand_profile_versions',
  {
    version: integer('version').primaryKey(),
    /** The profile as saved (contracts' BrandProfile). */
    profile: jsonb('profile').notNull(),
    /** Each term's inflected forms, found as it was saved (ExpandedTerm[]). */
    forms: jsonb('forms').notNull(),
    note: text('note'),
    savedBy: uuid('saved_by').references(() => users.id, { onDelete: 'set null' }),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('brand_profile_versions_version_check', sql`${t.version} > 0`)],
);

/** What the style check found in each day's generations of each tool (kept by a trigger on generations). */
export const styleDaily = pgTable(
  'style_daily',
  {
    day: date('day').notNull(),
    tool: text('tool').notNull(),
    checked: integer('checked').notNull(),
    scoreSum: integer('score_sum').notNull(),
    banned: integer('banned').notNull(),
    preferred: integer('preferred').notNull(),
    name: integer('name').notNull(),
    disclaimer: integer('disclaimer').notNull(),
    limit: integer('limit').notNull(),
    quotes: integer('quotes').notNull(),
    allCaps: integer('all_caps').notNull(),
    exclamation: integer('exclamation').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.tool] })],
);
