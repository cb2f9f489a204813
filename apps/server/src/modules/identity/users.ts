import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { appAccessGrants, users } from '../../db/schema/index';

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

/** The user's row id, and whether the allow-list names them. */
export type Visit = { userId: string; granted: boolean };

/**
 * Records a visit and reads the user's grant, in one statement that writes nothing when the
 * row is there with the same e-mail and name and was seen at or after `staleBefore`: then it is
 * a read of the users row and the grant row by their keys. Otherwise it updates the row (a
 * changed e-mail or name, `lastSeenAt` = `seenAt`) or creates it. Two instances creating the
 * same new user at once meet in ON CONFLICT and both get the one row's id.
 */
export async function recordVisitAndReadGrant(
  db: Db,
  identity: UserIdentity,
  seenAt: Date,
  staleBefore: Date,
): Promise<Visit> {
  const email = identity.email ?? null;
  const name = identity.name ?? null;
  const seen = seenAt.toISOString();
  const [row] = await rowsOf<{ user_id: string | null; granted: boolean }>(
    db,
    sql`
    with found as (
      select ${users.id} as id, ${users.email} as email, ${users.displayName} as display_name,
        ${users.lastSeenAt} as last_seen_at
      from ${users}
      where ${users.issuer} = ${identity.issuer} and ${users.subject} = ${identity.subject}
    ),
    touched as (
      update ${users} set
        email = coalesce(${email}::text, found.email),
        display_name = coalesce(${name}::text, found.display_name),
        last_seen_at = ${seen}::timestamptz
      from found
      where ${users.id} = found.id and (
        found.email is distinct from coalesce(${email}::text, found.email)
        or found.display_name is distinct from coalesce(${name}::text, found.display_name)
        or found.last_seen_at is null
        or found.last_seen_at < ${staleBefore.toISOString()}::timestamptz
      )
      returning ${users.id}
    ),
    created as (
      insert into ${users} (issuer, subject, email, display_name, last_seen_at)
      select ${identity.issuer}::text, ${identity.subject}::text, ${email}::text, ${name}::text,
        ${seen}::timestamptz
      where not exists (select 1 from found)
      on conflict (issuer, subject) do update set
        email = coalesce(excluded.email, ${users.email}),
        display_name = coalesce(excluded.display_name, ${users.displayName}),
        last_seen_at = excluded.last_seen_at
      returning ${users.id} as id
    ),
    visitor as (
      select id from found union all select id from created
    )
    select (select id from visitor limit 1) as user_id,
      exists (
        select 1 from ${appAccessGrants} where ${appAccessGrants.userId} = (select id from visitor limit 1)
      ) as granted
  `,
  );
  if (!row?.user_id) throw new Error('recording the visit returned no user');
  return { userId: row.user_id, granted: row.granted };
}
