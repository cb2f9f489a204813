import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The brief creator (issue 12): a user's chat sessions, their messages in order, and the briefs
 * accepted from them. A session is unfinished until its brief is accepted.
 */
export const briefSessions = pgTable(
  'brief_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the brief was accepted: the session leaves the unfinished list. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * The turn that holds the session (one turn at a time, across instances and tabs) and until
     * when: a turn whose instance died stops holding it then.
     */
    turnId: uuid('turn_id'),
    turnLeaseUntil: timestamp('turn_lease_until', { withTimezone: true }),
  },
  (t) => [index('brief_sessions_user_activity_idx').on(t.userId, t.lastActivityAt.desc())],
);

/**
 * A session's messages (spec §3 Chat session): user text, the assistant's answer as JSON with a
 * standardAnswer, and system messages carrying the brief data as it stood from then on.
 */
export const briefMessages = pgTable(
  'brief_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => briefSessions.id, { onDelete: 'cascade' }),
    /** The message's place in its session, from 1. */
    seq: integer('seq').notNull(),
    role: text('role', { enum: ['system', 'user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('brief_messages_session_seq_key').on(t.sessionId, t.seq),
    check('brief_messages_role_check', sql`${t.role} in ('system', 'user', 'assistant')`),
  ],
);

/**
 * A brief accepted from a session (spec §3 Finished brief); its messages are the session's.
 * Deleting one is a soft delete (issue 27): who deleted it and when stay on the row, the lists
 * and 'Start from this brief' skip it, and Undo clears both.
 */
export const finishedBriefs = pgTable(
  'finished_briefs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => briefSessions.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** The brief data (contracts' BriefData). */
    briefData: jsonb('brief_data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The user who deleted it (its owner: no one else may). */
    deletedBy: uuid('deleted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('finished_briefs_session_key').on(t.sessionId),
    index('finished_briefs_user_created_idx').on(t.userId, t.createdAt.desc()),
  ],
);
