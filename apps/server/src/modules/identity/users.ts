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
  /** The roles of their token, when it carries any (written with a visit, for the access list). */
  roles?: readonly string[] | undefined;
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

/**
 * The user's row id; whether the allow-list names them (granted), or names them as revoked
 * (blocked: no domain or role lets them in then); and the access decision last recorded for
 * them (null before the first).
 */
export type Visit = { userId: string; granted: boolean; blocked: boolean; hadAccess: boolean | null };

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
  const roles = JSON.stringify([...(identity.roles ?? [])].sort());
  const seen = seenAt.toISOString();
  const [row] = await rowsOf<{
    user_id: string | null;
    granted: boolean;
    blocked: boolean;
    had_access: boolean | null;
  }>(
    db,
    sql`
    with found as (
      select ${users.id} as id, ${users.email} as email, ${users.displayName} as display_name,
        ${users.lastSeenAt} as last_seen_at, ${users.roles} as roles, ${users.hadAccess} as had_access
      from ${users}
      where ${users.issuer} = ${identity.issuer} and ${users.subject} = ${identity.subject}
    ),
    touched as (
      update ${users} set
        email = coalesce(${email}::text, found.email),
        display_name = coalesce(${name}::text, found.display_name),
        roles = ${roles}::jsonb,
        last_seen_at = ${seen}::timestamptz
      from found
      where ${users.id} = found.id and (
        found.email is distinct from coalesce(${email}::text, found.email)
        or found.display_name is distinct from coalesce(${name}::text, found.display_name)
        or found.roles is distinct from ${roles}::jsonb
        or found.last_seen_at is null
        or found.last_seen_at < ${staleBefore.toISOString()}::timestamptz
      )
      returning ${users.id}
    ),
    created as (
      insert into ${users} (issuer, subject, email, display_name, roles, last_seen_at)
      select ${identity.issuer}::text, ${identity.subject}::text, ${email}::text, ${name}::text,
        ${roles}::jsonb, ${seen}::timestamptz
      where not exists (select 1 from found)
      on conflict (issuer, subject) do update set
        email = coalesce(excluded.email, ${users.email}),
        display_name = coalesce(excluded.display_name, ${users.displayName}),
        roles = excluded.roles,
        last_seen_at = excluded.last_seen_at
      returning ${users.id} as id
    ),
    visitor as (
      select id from found union all select id from created
    ),
    grant_row as (
      select ${appAccessGrants.revokedAt} as revoked_at from ${appAccessGrants}
      where ${appAccessGrants.userId} = (select id from visitor limit 1)
    )
    select (select id from visitor limit 1) as user_id,
      exists (select 1 from grant_row where revoked_at is null) as granted,
      exists (select 1 from grant_row where revoked_at is not null) as blocked,
      (select had_access from found) as had_access
  `,
  );
  if (!row?.user_id) throw new Error('recording the visit returned no user');
  return { userId: row.user_id, granted: row.granted, blocked: row.blocked, hadAccess: row.had_access };
}
