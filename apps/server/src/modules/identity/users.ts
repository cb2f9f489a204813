import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/index';

/** Someone GEM knows by their identity provider's issuer and subject. */
export type UserIdentity = {
  issuer: string;
  subject: string;
  email?: string | null | undefined;
  name?: string | null | undefined;
};

/**
 * The one place a user row is written: found by issuer and subject, created when new. A
 * known e-mail or name replaces the stored one (a missing one keeps it); `seenAt` records a
 * visit.
 */
export async function upsertUser(db: Db, identity: UserIdentity, seenAt?: Date): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email ?? null,
      displayName: identity.name ?? null,
      ...(seenAt ? { lastSeenAt: seenAt } : {}),
    })
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: {
        email: sql`coalesce(excluded.email, ${users.email})`,
        displayName: sql`coalesce(excluded.display_name, ${users.displayName})`,
        ...(seenAt ? { lastSeenAt: seenAt } : {}),
      },
    })
    .returning({ id: users.id });
  if (!row) throw new Error('user upsert returned no row');
  return row.id;
}
