import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Every AI generation (issue 4): who asked which tool for what, what came back, from which
 * model, at what cost and how it ended. A tool's history is a user's last rows of it.
 */
export const generations = pgTable(
  'generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The tool: a generator name from contracts, or a spec §7 call such as 'generate-prompt'. */
    generator: text('generator').notNull(),
    input: jsonb('input').notNull(),
    /** The final output (GenerationOutput); null when nothing usable came back. */
    output: jsonb('output'),
    model: text('model'),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    latencyMs: integer('latency_ms').notNull(),
    outcome: text('outcome', { enum: ['succeeded', 'failed', 'cancelled'] }).notNull(),
    /** Why it failed or was cancelled, e.g. ai_unavailable, timeout, client_closed. */
    errorCode: text('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The brand profile version the prompt carried (brand_profile_versions); null: none saved. */
    brandVersion: integer('brand_version'),
    /** The style check of the output ({ score, counts, findings }); null: nothing was checked. */
    style: jsonb('style'),
  },
  (t) => [
    index('generations_user_generator_created_idx').on(t.userId, t.generator, t.createdAt.desc()),
    // The AI service's health (calls in the last hour) and the usage page's records.
    index('generations_created_idx').on(t.createdAt.desc()),
    check('generations_outcome_check', sql`${t.outcome} in ('succeeded', 'failed', 'cancelled')`),
  ],
);
