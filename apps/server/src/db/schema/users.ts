import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A person who has used GEM, identified by their identity provider's issuer and subject
 * (Entra: the object id), never by e-mail: e-mail addresses change and can be reused.
 * E-mail and name are kept for audit and for the access tool's look-ups.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    displayName: text('display_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_issuer_subject_key').on(t.issuer, t.subject),
    index('users_email_idx').on(sql`lower(${t.email})`),
  ],
);

/** The allow-list: a row means the user may use GEM (managed with `npm run gem -- access`). */
export const appAccessGrants = pgTable('app_access_grants', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
});
