import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
    /** The roles of their latest token (the access list's 'role' rule); written with a visit. */
    roles: jsonb('roles').$type<string[]>().notNull().default([]),
    /** The last access decision made for them: a change is written to the audit log. */
    hadAccess: boolean('had_access'),
  },
  (t) => [
    uniqueIndex('users_issuer_subject_key').on(t.issuer, t.subject),
    index('users_email_idx').on(sql`lower(${t.email})`),
  ],
);

/**
 * The allow-list: a row without revoked_at means the user may use GEM (granted with
 * `npm run gem -- access` or by an administrator on /admin/access). A revoked row keeps who
 * revoked it, when and why, and shuts out a user whom a domain or a role would let in.
 */
export const appAccessGrants = pgTable('app_access_grants', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  /** The administrator who granted it; null from the command line or the demo seed. */
  grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
  reason: text('reason'),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  revokeReason: text('revoke_reason'),
});
