import type { AuditActionName } from '@gem/contracts/admin-audit';
import type { Db } from '../db/client';
import { auditEvents } from '../db/schema/index';

/**
 * The audit log (issue 30, `audit_events`): every sign-in (succeeded or failed; never a
 * password), every access decision that changed, and every administrator's action. Modules
 * write it through this one function; the admin area reads and searches it.
 */

/** What happened: one name per kind (contracts/admin-audit.ts, so the admin page can filter by it). */
export type AuditAction = AuditActionName;

export type AuditEntry = {
  action: AuditAction;
  /** Who did it: a user's row id and e-mail; null for GEM itself (the scheduler). */
  actor?: { userId?: string | null; email?: string | null } | null;
  /** Whom it was about, when a person. */
  targetUserId?: string | null;
  /** What it was about, in words: an e-mail, a model, a setting. */
  target?: string | null;
  /** More about it; never a password, a token or a prompt. */
  details?: Record<string, unknown>;
  ip?: string | null;
};

/** Writes one entry; run it in the transaction of the change it records when there is one. */
export async function recordAudit(db: Pick<Db, 'insert'>, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    action: entry.action,
    actorUserId: entry.actor?.userId ?? null,
    actorEmail: entry.actor?.email ?? null,
    targetUserId: entry.targetUserId ?? null,
    target: entry.target ?? null,
    details: entry.details ?? {},
    ip: entry.ip ?? null,
  });
}
