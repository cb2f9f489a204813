import type { AuthConfigResponse } from '@gem/contracts/identity';
import { and, eq, sql } from 'drizzle-orm';
import type { AccessConfig, AuthConfig } from '../../config';
import type { Db } from '../../db/client';
import { appAccessGrants, users } from '../../db/schema/index';
import { recordAudit } from '../../lib/audit';
import type { VerifiedIdentity } from '../../integrations/oidc/token-verifier';
import type { Admission } from '../../plugins/auth';
import { recordVisitAndReadGrant, upsertUser } from './users';

// Bounds memory if many distinct users appear; the oldest decisions go first.
const MAX_CACHED_DECISIONS = 10_000;
/** A user's lastSeenAt is written at most this often (per user, across instances). */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

export type IdentityServiceDeps = {
  db: Db;
  auth: AuthConfig;
  access: AccessConfig;
  now?: () => number;
  /** The embedded provider's demo accounts, listed on /login while they are on (auth.demoAccounts). */
  demoAccounts?: readonly { email: string; password: string; displayName: string }[];
};

/**
 * Who may use GEM. hasAccess is true for an administrator, and for anyone not revoked by an admin who is on the allow-list, whose e-mail domain
 * is allowed, or their token carries an allowed role.
 *
 * A "yes" is kept in this instance's memory for at most access.decisionCacheMs, keyed by
 * everything it depends on in the token (issuer, subject, e-mail, name, roles): a token with
 * another e-mail, name or role set is decided afresh at once, and a grant revoked in the
 * database (by the access tool, from any instance) takes effect within that window on every
 * instance, even while the user's token is still valid. A "no" is never reused: a user who was
 * just given access is let in at their next request, on whichever instance it lands (the SPA's
 * Access Denied page asks the access check again).
 *
 * Deciding is one statement (users.ts recordVisitAndReadGrant) that reads the user's row and grant and
 * writes only when the row is missing, the e-mail or name changed, or lastSeenAt is older than
 * LAST_SEEN_RESOLUTION_MS. Concurrent requests of one user share one decision in flight.
 */
export function createIdentityService({
  db,
  auth,
  access,
  now = Date.now,
  demoAccounts = [],
}: IdentityServiceDeps) {
  // Only "yes" decisions: the admission (frozen, handed to every request it admits), and until
  // when it may be reused.
  const decisions = new Map<string, { admission: Admission; until: number }>();
  const inFlight = new Map<string, Promise<Admission>>();
  const allowedDomains = new Set(access.allowedDomains);
  const adminEmails = new Set(access.adminEmails);

  // The token verifier hands out one frozen identity per token, so its key is worked out once.
  const keys = new WeakMap<VerifiedIdentity, string>();
  const keyOf = (identity: VerifiedIdentity) => {
    let key = keys.get(identity);
    if (key === undefined) {
      key = JSON.stringify([
        identity.issuer,
        identity.subject,
        identity.email,
        identity.name,
        identity.roles,
      ]);
      keys.set(identity, key);
    }
    return key;
  };

  async function decide(key: string, identity: VerifiedIdentity): Promise<Admission> {
    const at = now();
    const visit = await recordVisitAndReadGrant(
      db,
      identity,
      new Date(at),
      new Date(at - LAST_SEEN_RESOLUTION_MS),
    );
    const { userId } = visit;
    const isAdmin = isAdminBy(identity.email, identity.roles);
    const rule = accessRuleOf(visit, identity.email, identity.roles, isAdmin);
    const hasAccess = rule !== null;
    if (visit.hadAccess !== hasAccess) await recordDecisionChange(userId, identity, hasAccess, rule);

    decisions.delete(key);
    if (hasAccess) {
      decisions.set(key, {
        admission: Object.freeze({ userId, hasAccess: true, isAdmin }),
        until: at + access.decisionCacheMs,
      });
      if (decisions.size > MAX_CACHED_DECISIONS) {
        const oldest = decisions.keys().next().value;
        if (oldest !== undefined) decisions.delete(oldest);
      }
    }
    return { userId, hasAccess, isAdmin };
  }

  /**
   * How the user gets in, or null: an administrator always; otherwise not while an admin's
   * revocation stands; then the allow-list, their e-mail's domain, a role of their token.
   */
  function accessRuleOf(
    visit: { granted: boolean; blocked: boolean },
    email: string | null | undefined,
    roles: readonly string[],
    isAdmin: boolean,
  ): AccessRule | null {
    if (isAdmin) return 'admin';
    if (visit.blocked) return null;
    if (visit.granted) return 'list';
    const domain = email?.split('@').pop()?.toLowerCase();
    if (domain !== undefined && allowedDomains.has(domain)) return 'domain';
    if (roles.some((role) => access.requiredRoles.includes(role))) return 'role';
    return null;
  }

  const isAdminBy = (email: string | null | undefined, roles: readonly string[]) =>
    (email != null && adminEmails.has(email.toLowerCase())) ||
    roles.some((role) => access.adminRoles.includes(role));

  /**
   * A decision unlike the last one recorded for the user (or their first): kept on their row and
   * written to the audit log. Only the instance whose update changes the row writes the entry.
   */
  async function recordDecisionChange(
    userId: string,
    identity: VerifiedIdentity,
    hasAccess: boolean,
    rule: AccessRule | null,
  ) {
    await db.transaction(async (tx) => {
      const changed = await tx
        .update(users)
        .set({ hadAccess: hasAccess })
        .where(and(eq(users.id, userId), sql`${users.hadAccess} is distinct from ${hasAccess}`))
        .returning({ id: users.id });
      if (changed.length === 0) return;
      await recordAudit(tx, {
        action: 'access.changed',
        targetUserId: userId,
        target: identity.email ?? null,
        details: { hasAccess, rule },
      });
    });
  }

  /** Decides afresh, once for all the requests of that identity that ask meanwhile. */
  function decideOnce(key: string, identity: VerifiedIdentity): Promise<Admission> {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = decide(key, identity).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * The gate in front of every protected route, and the access check
   * (GET /api/identity/check-app-access): a recent "yes" from memory, at once (no promise: the
   * auth hook's synchronous path), otherwise a decision, through a promise.
   */
  function admit(identity: VerifiedIdentity): Admission | Promise<Admission> {
    const key = keyOf(identity);
    const cached = decisions.get(key);
    if (cached && cached.until > now()) return cached.admission;
    return decideOnce(key, identity);
  }

  return {
    admit,

    /**
     * How a person GEM knows gets in, from what their row holds (their e-mail, the roles of their
     * latest token, their grant): the admin area's access list, by the same rules as admit.
     */
    ruleOf(person: { email: string | null; roles: readonly string[]; granted: boolean; blocked: boolean }) {
      const isAdmin = isAdminBy(person.email, person.roles);
      return { rule: accessRuleOf(person, person.email, person.roles, isAdmin), isAdmin };
    },

    /**
     * Drops this instance's remembered "yes" for a user, so an administrator's revocation holds
     * here at their next request; other instances let their own go within decisionCacheMs.
     */
    forget(userId: string) {
      for (const [key, decision] of decisions) {
        if (decision.admission.userId === userId) decisions.delete(key);
      }
    },

    /** What the SPA needs to set up oidc-client-ts (GET /api/identity/auth-config). */
    authConfig(): AuthConfigResponse {
      return {
        authority: auth.issuer,
        clientId: auth.clientId,
        scope: `openid profile email offline_access ${auth.scope}`,
        resource: auth.mode === 'embedded' ? auth.audience : null,
        audience: auth.audience,
        embedded: auth.mode === 'embedded',
        accessContacts: access.contacts,
        // Published passwords: only while the embedded provider's demo accounts are on.
        ...(auth.mode === 'embedded' && auth.demoAccounts
          ? {
              demoAccounts: demoAccounts.map((a) => ({
                email: a.email,
                password: a.password,
                label: a.displayName,
              })),
            }
          : {}),
      };
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;

/** How someone gets into GEM: as an administrator, on the allow-list, by domain or by role. */
export type AccessRule = 'admin' | 'list' | 'domain' | 'role';

export type AccessEntry = {
  email: string | null;
  name: string | null;
  issuer: string;
  subject: string;
  grantedAt: Date;
  lastSeenAt: Date | null;
};

export class AccessAdminError extends Error {
  override name = 'AccessAdminError';
}

/**
 * The allow-list as the command-line tool manages it. A grant names a user by issuer and
 * subject; the tool finds them by e-mail among users GEM has recorded (external issuer) or
 * among local accounts (embedded provider).
 */
const REVOKED_FROM_THE_COMMAND_LINE = 'Revoked with gem access revoke.';

export function createAccessAdmin({ db }: { db: Db }) {
  async function usersByEmail(issuer: string, email: string) {
    return db
      .select({ id: users.id, subject: users.subject, lastSeenAt: users.lastSeenAt })
      .from(users)
      .where(and(eq(users.issuer, issuer), eq(sql`lower(${users.email})`, email.toLowerCase())));
  }

  async function onlyUserByEmail(issuer: string, email: string) {
    const found = await usersByEmail(issuer, email);
    if (found.length === 0) {
      throw new AccessAdminError(
        `No one with the e-mail ${email} has signed in to GEM yet. Ask them to sign in once (they will see Access Denied), then run this again.`,
      );
    }
    if (found.length > 1) {
      throw new AccessAdminError(
        `${found.length} different accounts of this identity provider have used ${email}; GEM will not guess which one is meant.`,
      );
    }
    return found[0]!.id;
  }

  return {
    /**
     * Grants access, as an administrator's grant does but by no one (the access list says "the
     * command line"), and records it in the audit. A grant an administrator revoked is given back.
     */
    async grant(target: { issuer: string; email: string; subject?: string; name?: string | null }) {
      const userId =
        target.subject !== undefined
          ? await upsertUser(db, { ...target, subject: target.subject })
          : await onlyUserByEmail(target.issuer, target.email);
      return db.transaction(async (tx) => {
        const inserted = await tx
          .insert(appAccessGrants)
          .values({ userId })
          .onConflictDoUpdate({
            target: appAccessGrants.userId,
            set: {
              grantedAt: sql`now()`,
              grantedBy: null,
              reason: null,
              revokedAt: null,
              revokedBy: null,
              revokeReason: null,
            },
            setWhere: sql`${appAccessGrants.revokedAt} is not null`,
          })
          .returning({ userId: appAccessGrants.userId });
        if (inserted.length > 0) {
          await recordAudit(tx, {
            action: 'access.granted',
            actor: null,
            targetUserId: userId,
            target: target.email,
            details: { via: 'command-line' },
          });
        }
        return { alreadyGranted: inserted.length === 0 };
      });
    },

    /**
     * Revokes a grant the way an administrator does: the row stays, marked revoked (so the access
     * list keeps who had it and when), and the revocation is in the audit. Like theirs, it also
     * holds against a domain or a role that would let the person in. Someone with no grant is left
     * as they are: shutting out a domain's member is the admin page's (or the configuration's).
     */
    async revoke(target: { issuer: string; email: string }) {
      const found = await usersByEmail(target.issuer, target.email);
      let revoked = 0;
      for (const user of found) {
        await db.transaction(async (tx) => {
          const gone = await tx
            .update(appAccessGrants)
            .set({ revokedAt: sql`now()`, revokedBy: null, revokeReason: REVOKED_FROM_THE_COMMAND_LINE })
            .where(and(eq(appAccessGrants.userId, user.id), sql`${appAccessGrants.revokedAt} is null`))
            .returning({ userId: appAccessGrants.userId });
          if (gone.length === 0) return;
          revoked += 1;
          await recordAudit(tx, {
            action: 'access.revoked',
            actor: null,
            targetUserId: user.id,
            target: target.email,
            details: { reason: REVOKED_FROM_THE_COMMAND_LINE, before: 'list', via: 'command-line' },
          });
        });
      }
      return { revoked };
    },

    async list(): Promise<AccessEntry[]> {
      return db
        .select({
          email: users.email,
          name: users.displayName,
          issuer: users.issuer,
          subject: users.subject,
          grantedAt: appAccessGrants.grantedAt,
          lastSeenAt: users.lastSeenAt,
        })
        .from(appAccessGrants)
        .innerJoin(users, eq(users.id, appAccessGrants.userId))
        .where(sql`${appAccessGrants.revokedAt} is null`)
        .orderBy(sql`lower(${users.email})`);
    },

    /** Forgets a user entirely (their grant goes with them). */
    async forgetUser(target: { issuer: string; subject: string }) {
      await db.delete(users).where(and(eq(users.issuer, target.issuer), eq(users.subject, target.subject)));
    },
  };
}

export type AccessAdmin = ReturnType<typeof createAccessAdmin>;
