import type { AuthConfigResponse } from '@gem/contracts/identity';
import { and, eq, sql } from 'drizzle-orm';
import type { AccessConfig, AuthConfig } from '../../config';
import type { Db } from '../../db/client';
import { appAccessGrants, users } from '../../db/schema/index';
import type { VerifiedIdentity } from '../../integrations/oidc/token-verifier';
import type { Admission } from '../../plugins/auth';
import { upsertUser } from './users';

// Bounds memory if many distinct users appear; the oldest decisions go first.
const MAX_CACHED_DECISIONS = 10_000;

export type IdentityServiceDeps = {
  db: Db;
  auth: AuthConfig;
  access: AccessConfig;
  now?: () => number;
};

/**
 * Who may use GEM. hasAccess is true when the user is on the allow-list, their e-mail domain
 * is allowed, or their token carries an allowed role. Decisions are reused for at most
 * access.decisionCacheMs, so a revoked grant takes effect within that window on every
 * instance, even while the user's token is still valid.
 */
export function createIdentityService({ db, auth, access, now = Date.now }: IdentityServiceDeps) {
  const decisions = new Map<string, Admission & { until: number }>();
  const allowedDomains = new Set(access.allowedDomains);

  const keyOf = (identity: VerifiedIdentity) => JSON.stringify([identity.issuer, identity.subject]);

  /** Records the user (audit: who, when last seen) and decides afresh. */
  async function admitAfresh(identity: VerifiedIdentity): Promise<Admission> {
    const userId = await upsertUser(db, identity, new Date(now()));
    const [grant] = await db
      .select({ userId: appAccessGrants.userId })
      .from(appAccessGrants)
      .where(eq(appAccessGrants.userId, userId))
      .limit(1);
    const domain = identity.email?.split('@').pop();
    const hasAccess =
      grant !== undefined ||
      (domain !== undefined && allowedDomains.has(domain)) ||
      identity.roles.some((role) => access.requiredRoles.includes(role));

    const key = keyOf(identity);
    decisions.delete(key);
    decisions.set(key, { userId, hasAccess, until: now() + access.decisionCacheMs });
    if (decisions.size > MAX_CACHED_DECISIONS) {
      const oldest = decisions.keys().next().value;
      if (oldest !== undefined) decisions.delete(oldest);
    }
    return { userId, hasAccess };
  }

  return {
    /** GET /api/identity/check-app-access: always decides afresh and records the visit. */
    admitAfresh,

    /** The gate in front of every protected route: a decision is reused for decisionCacheMs. */
    async admit(identity: VerifiedIdentity): Promise<Admission> {
      const cached = decisions.get(keyOf(identity));
      if (cached && cached.until > now()) return { userId: cached.userId, hasAccess: cached.hasAccess };
      return admitAfresh(identity);
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
      };
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;

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
    async grant(target: { issuer: string; email: string; subject?: string; name?: string | null }) {
      const userId =
        target.subject !== undefined
          ? await upsertUser(db, { ...target, subject: target.subject })
          : await onlyUserByEmail(target.issuer, target.email);
      const inserted = await db
        .insert(appAccessGrants)
        .values({ userId })
        .onConflictDoNothing()
        .returning({ userId: appAccessGrants.userId });
      return { alreadyGranted: inserted.length === 0 };
    },

    async revoke(target: { issuer: string; email: string }) {
      const found = await usersByEmail(target.issuer, target.email);
      let revoked = 0;
      for (const user of found) {
        const gone = await db
          .delete(appAccessGrants)
          .where(eq(appAccessGrants.userId, user.id))
          .returning({ userId: appAccessGrants.userId });
        revoked += gone.length;
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
        .orderBy(sql`lower(${users.email})`);
    },

    /** Forgets a user entirely (their grant goes with them). */
    async forgetUser(target: { issuer: string; subject: string }) {
      await db.delete(users).where(and(eq(users.issuer, target.issuer), eq(users.subject, target.subject)));
    },
  };
}

export type AccessAdmin = ReturnType<typeof createAccessAdmin>;
