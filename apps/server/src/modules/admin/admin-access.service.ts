import type {
  AccessEntry,
  AccessListQuery,
  AccessListResponse,
  AccessRequest,
  AccessRequestDecision,
  AccessRequestsResponse,
  AccessRuleName,
  CreateAccessRequest,
  GrantAccessRequest,
  OwnAccessRequest,
  OwnAccessRequestResponse,
  RevokeAccessRequest,
} from '@gem/contracts/admin-access';
import type { AdminPerson } from '@gem/contracts/admin';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { accessRequests, appAccessGrants, users } from '../../db/schema/index';
import { recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/app-error';
import type { AdminDeps } from './admin.deps';

/** Who made a change, as the audit log records them: from the request's verified token. */
export type AccessActor = { userId: string; email: string | null; ip: string | null };

/** The reason recorded when an administrator approves a request without words of their own. */
export const APPROVED_REQUEST_REASON = 'Access request approved';

// The access list is everyone GEM knows; past this many the search narrows it.
const MAX_LISTED = 2_000;
// Decided requests shown below the pending ones: the latest few, for context.
const DECIDED_SHOWN = 20;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The admin area's access (issue 30): the access list (everyone GEM knows, how they get in, who
 * granted or revoked it, when and why, their last visit), grants and revocations with a reason,
 * and access requests: sent from the Access Denied page, approved or declined by an
 * administrator. Every change and its audit entry are written in one transaction. A revocation
 * drops the user's remembered decision on this instance at once; every other instance lets its
 * own go within access.decisionCacheMs (60 s), as with the command-line tool.
 */
export function createAdminAccess(deps: AdminDeps) {
  const { db } = deps;
  const identity = deps.identity ?? {
    // Only a test that builds the admin area without the identity service gets here.
    ruleOf: () => ({ rule: null, isAdmin: false }),
    forget: () => undefined,
  };

  const person = (row: { id: string; email: string | null; displayName: string | null }): AdminPerson => ({
    userId: row.id,
    email: row.email,
    name: row.displayName,
  });

  async function peopleById(ids: (string | null)[]): Promise<Map<string, AdminPerson>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await db
      .select({ id: users.id, email: users.email, displayName: users.displayName })
      .from(users)
      .where(inArray(users.id, wanted));
    return new Map(rows.map((r) => [r.id, person(r)]));
  }

  /** The access list's rows of these users (all of them when none are named). */
  async function entries(userIds?: string[]): Promise<AccessEntry[]> {
    const rows = await db
      .select({
        id: users.id,
        email: users.email,
        displayName: users.displayName,
        roles: users.roles,
        lastSeenAt: users.lastSeenAt,
        grantedAt: appAccessGrants.grantedAt,
        grantedBy: appAccessGrants.grantedBy,
        reason: appAccessGrants.reason,
        revokedAt: appAccessGrants.revokedAt,
        revokedBy: appAccessGrants.revokedBy,
        revokeReason: appAccessGrants.revokeReason,
        pendingRequestId: accessRequests.id,
      })
      .from(users)
      .leftJoin(appAccessGrants, eq(appAccessGrants.userId, users.id))
      .leftJoin(
        accessRequests,
        and(eq(accessRequests.userId, users.id), eq(accessRequests.status, 'pending')),
      )
      .where(userIds ? inArray(users.id, userIds) : undefined)
      .orderBy(sql`lower(coalesce(${users.email}, ${users.displayName}, ''))`, asc(users.id))
      .limit(MAX_LISTED);
    const names = await peopleById(rows.flatMap((r) => [r.grantedBy, r.revokedBy]));
    return rows.map((r) => {
      const granted = r.grantedAt !== null && r.revokedAt === null;
      const blocked = r.revokedAt !== null;
      const { rule } = identity.ruleOf({ email: r.email, roles: r.roles, granted, blocked });
      const shown: AccessRuleName = rule ?? (blocked ? 'revoked' : 'none');
      return {
        user: person(r),
        hasAccess: rule !== null,
        rule: shown,
        grant:
          granted && r.grantedAt
            ? {
                grantedAt: r.grantedAt.toISOString(),
                grantedBy: r.grantedBy ? (names.get(r.grantedBy) ?? null) : null,
                reason: r.reason,
              }
            : null,
        revocation:
          blocked && r.revokedAt
            ? {
                revokedAt: r.revokedAt.toISOString(),
                revokedBy: r.revokedBy ? (names.get(r.revokedBy) ?? null) : null,
                reason: r.revokeReason,
              }
            : null,
        lastSeenAt: iso(r.lastSeenAt),
        pendingRequestId: r.pendingRequestId,
      };
    });
  }

  async function entryOf(userId: string): Promise<AccessEntry> {
    const [entry] = await entries([userId]);
    if (!entry) throw notFoundPerson();
    return entry;
  }

  const notFoundPerson = () =>
    AppError.invalid([
      { path: 'body.userId', message: 'No one GEM knows has this id; reload the access list.' },
    ]);

  const nameOf = (entry: AccessEntry) => entry.user.email ?? entry.user.name ?? 'this person';

  /** The person a grant names: by id, or by the e-mail they signed in with (one account only). */
  async function targetOf(input: { userId?: string | undefined; email?: string | undefined }) {
    if (input.userId !== undefined) return entryOf(input.userId);
    const email = input.email!.trim();
    const found = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
    if (found.length === 0) {
      throw AppError.invalid([
        {
          path: 'body.email',
          message: `No one with the e-mail ${email} has signed in to GEM yet. Ask them to sign in once (they will see Access Denied), then grant access again.`,
        },
      ]);
    }
    if (found.length > 1) {
      throw AppError.invalid([
        {
          path: 'body.email',
          message: `${found.length} different accounts have used ${email}; choose the person from the access list instead.`,
        },
      ]);
    }
    return entryOf(found[0]!.id);
  }

  /**
   * Puts the user on the access list (a revocation is lifted), and approves their pending
   * request, inside the caller's transaction; false when a grant was in force already.
   */
  async function writeGrant(tx: Tx, userId: string, actor: AccessActor, reason: string) {
    const written = await tx
      .insert(appAccessGrants)
      .values({ userId, grantedBy: actor.userId, reason })
      .onConflictDoUpdate({
        target: appAccessGrants.userId,
        set: {
          grantedAt: sql`now()`,
          grantedBy: actor.userId,
          reason,
          revokedAt: null,
          revokedBy: null,
          revokeReason: null,
        },
        setWhere: sql`${appAccessGrants.revokedAt} is not null`,
      })
      .returning({ userId: appAccessGrants.userId });
    return written.length > 0;
  }

  async function approvePending(tx: Tx, userId: string, actor: AccessActor, reason: string) {
    return tx
      .update(accessRequests)
      .set({ status: 'approved', decidedAt: sql`now()`, decidedBy: actor.userId, decisionReason: reason })
      .where(and(eq(accessRequests.userId, userId), eq(accessRequests.status, 'pending')))
      .returning({ id: accessRequests.id });
  }

  const auditActor = (actor: AccessActor) => ({ userId: actor.userId, email: actor.email });

  async function requestsWhere(where: ReturnType<typeof eq>, order: 'oldest' | 'newest', limit?: number) {
    const decider = alias(users, 'decider');
    let query = db
      .select({
        id: accessRequests.id,
        note: accessRequests.note,
        status: accessRequests.status,
        createdAt: accessRequests.createdAt,
        decidedAt: accessRequests.decidedAt,
        decisionReason: accessRequests.decisionReason,
        userId: users.id,
        email: users.email,
        displayName: users.displayName,
        deciderId: decider.id,
        deciderEmail: decider.email,
        deciderName: decider.displayName,
      })
      .from(accessRequests)
      .innerJoin(users, eq(users.id, accessRequests.userId))
      .leftJoin(decider, eq(decider.id, accessRequests.decidedBy))
      .where(where)
      .orderBy(
        order === 'oldest'
          ? asc(accessRequests.createdAt)
          : desc(sql`coalesce(${accessRequests.decidedAt}, ${accessRequests.createdAt})`),
        asc(accessRequests.id),
      )
      .$dynamic();
    if (limit !== undefined) query = query.limit(limit);
    const rows = await query;
    return rows.map((r): AccessRequest => ({
      id: r.id,
      user: { userId: r.userId, email: r.email, name: r.displayName },
      note: r.note,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      decidedAt: iso(r.decidedAt),
      decidedBy: r.deciderId ? { userId: r.deciderId, email: r.deciderEmail, name: r.deciderName } : null,
      decisionReason: r.decisionReason,
    }));
  }

  const ownRequest = (r: typeof accessRequests.$inferSelect): OwnAccessRequest => ({
    id: r.id,
    note: r.note,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    decidedAt: iso(r.decidedAt),
    decisionReason: r.decisionReason,
  });

  /** The requester's latest request, or null, and whether they may use GEM now. */
  async function latestOwnRequest(requester: {
    userId: string;
    hasAccess: boolean;
  }): Promise<OwnAccessRequestResponse> {
    const [latest] = await db
      .select()
      .from(accessRequests)
      .where(eq(accessRequests.userId, requester.userId))
      .orderBy(desc(accessRequests.createdAt), desc(accessRequests.id))
      .limit(1);
    return { request: latest ? ownRequest(latest) : null, hasAccess: requester.hasAccess };
  }

  return {
    /** The access list, searched by name or e-mail and filtered by rule. */
    async list(query: AccessListQuery): Promise<AccessListResponse> {
      const all = await entries();
      const q = query.q?.toLowerCase();
      const shown = all.filter(
        (e) =>
          (query.rule === undefined || e.rule === query.rule) &&
          (!q || `${e.user.email ?? ''} ${e.user.name ?? ''}`.toLowerCase().includes(q)),
      );
      return { entries: shown, total: all.length };
    },

    /** Puts someone on the access list, with the reason; their pending request is approved. */
    async grant(input: GrantAccessRequest, actor: AccessActor): Promise<{ entry: AccessEntry }> {
      const target = await targetOf(input);
      if (target.grant) {
        throw new AppError(
          409,
          'conflict',
          `${nameOf(target)} is on the access list already (since ${target.grant.grantedAt.slice(0, 10)}).`,
        );
      }
      await db.transaction(async (tx) => {
        await writeGrant(tx, target.user.userId, actor, input.reason);
        await recordAudit(tx, {
          action: 'access.granted',
          actor: auditActor(actor),
          targetUserId: target.user.userId,
          target: target.user.email,
          details: { reason: input.reason, before: target.rule },
          ip: actor.ip,
        });
        const approved = await approvePending(tx, target.user.userId, actor, input.reason);
        for (const request of approved) {
          await recordAudit(tx, {
            action: 'access.request-approved',
            actor: auditActor(actor),
            targetUserId: target.user.userId,
            target: target.user.email,
            details: { requestId: request.id, reason: input.reason },
            ip: actor.ip,
          });
        }
      });
      return { entry: await entryOf(target.user.userId) };
    },

    /**
     * Shuts someone out, with the reason: their grant is revoked, or a revoked row is written that
     * holds against a domain or a role that lets them in. Never an administrator, nor oneself.
     */
    async revoke(input: RevokeAccessRequest, actor: AccessActor): Promise<{ entry: AccessEntry }> {
      const target = await entryOf(input.userId);
      if (target.user.userId === actor.userId) {
        throw AppError.invalid([
          { path: 'body.userId', message: 'You cannot revoke your own access; ask another administrator.' },
        ]);
      }
      if (target.rule === 'admin') {
        throw AppError.invalid([
          {
            path: 'body.userId',
            message: `${nameOf(target)} gets in as an administrator. Remove them from GEM_ADMIN_EMAILS (or their role from GEM_ADMIN_ROLES) to take their access away.`,
          },
        ]);
      }
      if (target.rule === 'revoked') {
        throw new AppError(409, 'conflict', `The access of ${nameOf(target)} is revoked already.`);
      }
      if (target.rule === 'none') {
        throw AppError.invalid([
          { path: 'body.userId', message: `${nameOf(target)} has no access to revoke.` },
        ]);
      }
      await db.transaction(async (tx) => {
        await tx
          .insert(appAccessGrants)
          .values({
            userId: target.user.userId,
            revokedAt: sql`now()`,
            revokedBy: actor.userId,
            revokeReason: input.reason,
          })
          .onConflictDoUpdate({
            target: appAccessGrants.userId,
            set: { revokedAt: sql`now()`, revokedBy: actor.userId, revokeReason: input.reason },
          });
        await recordAudit(tx, {
          action: 'access.revoked',
          actor: auditActor(actor),
          targetUserId: target.user.userId,
          target: target.user.email,
          details: { reason: input.reason, before: target.rule },
          ip: actor.ip,
        });
      });
      identity.forget(target.user.userId);
      return { entry: await entryOf(target.user.userId) };
    },

    /** Every pending request, oldest first, and the latest decided ones. */
    async requests(): Promise<AccessRequestsResponse> {
      const [pending, decided] = await Promise.all([
        requestsWhere(eq(accessRequests.status, 'pending'), 'oldest'),
        requestsWhere(ne(accessRequests.status, 'pending'), 'newest', DECIDED_SHOWN),
      ]);
      return { pending, decided };
    },

    /** Approves (a grant, with the reason) or declines (the reason, when given, is recorded). */
    async decide(
      requestId: string,
      input: AccessRequestDecision,
      actor: AccessActor,
    ): Promise<{ request: AccessRequest }> {
      const [request] = await db.select().from(accessRequests).where(eq(accessRequests.id, requestId));
      if (!request) throw new AppError(404, 'not_found', 'No such access request; reload the list.');
      if (request.status !== 'pending') {
        throw new AppError(409, 'conflict', `This request was ${request.status} already; reload the list.`);
      }
      const target = await entryOf(request.userId);
      await db.transaction(async (tx) => {
        if (input.decision === 'approve') {
          const reason = input.reason ?? APPROVED_REQUEST_REASON;
          const approved = await approvePending(tx, request.userId, actor, reason);
          if (approved.length === 0) throw decidedMeanwhile();
          // A grant in force already (made meanwhile) is kept as it was made.
          if (!target.grant && (await writeGrant(tx, request.userId, actor, reason))) {
            await recordAudit(tx, {
              action: 'access.granted',
              actor: auditActor(actor),
              targetUserId: request.userId,
              target: target.user.email,
              details: { reason, before: target.rule, requestId },
              ip: actor.ip,
            });
          }
          await recordAudit(tx, {
            action: 'access.request-approved',
            actor: auditActor(actor),
            targetUserId: request.userId,
            target: target.user.email,
            details: { requestId, reason },
            ip: actor.ip,
          });
        } else {
          const declined = await tx
            .update(accessRequests)
            .set({
              status: 'declined',
              decidedAt: sql`now()`,
              decidedBy: actor.userId,
              decisionReason: input.reason ?? null,
            })
            .where(and(eq(accessRequests.id, requestId), eq(accessRequests.status, 'pending')))
            .returning({ id: accessRequests.id });
          if (declined.length === 0) throw decidedMeanwhile();
          await recordAudit(tx, {
            action: 'access.request-declined',
            actor: auditActor(actor),
            targetUserId: request.userId,
            target: target.user.email,
            details: { requestId, reason: input.reason ?? null },
            ip: actor.ip,
          });
        }
      });
      const [decided] = await requestsWhere(eq(accessRequests.id, requestId), 'newest');
      return { request: decided! };
    },

    /** The requester's latest request, or null (GET /api/identity/access-request). */
    ownRequest: latestOwnRequest,

    /**
     * Asks for access (POST /api/identity/access-request): a new pending request, or the pending
     * one with the new note. Someone who may use GEM already asks for nothing: the answer says so
     * (hasAccess), with their latest request as it is.
     */
    async requestAccess(
      input: CreateAccessRequest,
      requester: AccessActor & { hasAccess: boolean },
    ): Promise<OwnAccessRequestResponse & { created: boolean }> {
      if (requester.hasAccess) return { ...(await latestOwnRequest(requester)), created: false };
      const note = input.note ? input.note : null;
      return db.transaction(async (tx) => {
        const [pending] = await tx
          .select({ id: accessRequests.id })
          .from(accessRequests)
          .where(and(eq(accessRequests.userId, requester.userId), eq(accessRequests.status, 'pending')));
        // One pending request per user (a partial unique index): a second one changes its note.
        const [row] = await tx
          .insert(accessRequests)
          .values({ userId: requester.userId, note })
          .onConflictDoUpdate({
            target: accessRequests.userId,
            targetWhere: sql`${accessRequests.status} = 'pending'`,
            set: { note },
          })
          .returning();
        await recordAudit(tx, {
          action: 'access.requested',
          actor: auditActor(requester),
          targetUserId: requester.userId,
          target: requester.email,
          details: { requestId: row!.id, note, again: pending !== undefined },
          ip: requester.ip,
        });
        return { request: ownRequest(row!), hasAccess: false, created: pending === undefined };
      });
    },
  };
}

const decidedMeanwhile = () =>
  new AppError(409, 'conflict', 'This request was decided by someone else meanwhile; reload the list.');

export type AdminAccess = ReturnType<typeof createAdminAccess>;
