import {
  AUDIT_PAGE_SIZE,
  auditActionNames,
  auditKinds,
  type AuditEntry,
  type AuditKind,
  type AuditResponse,
} from '@gem/contracts/admin-audit';
import { and, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { adminSettings, auditEvents } from '../../db/schema/index';
import { recordAudit } from '../../lib/audit';
import type { AdminDeps } from './admin.deps';

/**
 * The audit log's page (issue 30): entries newest first, a page at a time (keyset: the entries
 * older than the last one shown), searched and filtered; how long they are kept, and the daily
 * task that removes the older ones.
 */

/** The scheduler task that removes entries older than the retention, once a day across instances. */
export const AUDIT_PURGE_TASK = 'admin.audit-purge';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows deleted per statement: each one short, so the table is never locked for long. */
const PURGE_BATCH = 5_000;
const DEFAULT_RETENTION_DAYS = 365;

/** A search text as an ILIKE pattern that matches it literally anywhere (its own % and _ escaped). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The actions of a kind: those named `<kind>.…`. */
const actionsOf = (kind: AuditKind) => auditActionNames.filter((a) => a.startsWith(`${kind}.`));

/** Who is acting, as the routes hand it over. */
export type AuditActor = { userId: string; email: string | null; ip: string | null };

export type AuditPageQuery = {
  q?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  before?: string | undefined;
};

export function createAdminAudit({ db, config, scheduler, log, now = Date.now }: AdminDeps) {
  async function retentionDays(): Promise<number> {
    const [row] = await db.select({ days: adminSettings.auditRetentionDays }).from(adminSettings);
    return row?.days ?? DEFAULT_RETENTION_DAYS;
  }

  async function list(query: AuditPageQuery): Promise<AuditResponse> {
    const conditions: (SQL | undefined)[] = [];
    const q = query.q?.trim();
    if (q) {
      const pattern = containsPattern(q);
      conditions.push(
        or(
          ilike(auditEvents.actorEmail, pattern),
          ilike(auditEvents.target, pattern),
          ilike(auditEvents.action, pattern),
        ),
      );
    }
    if (query.action) {
      conditions.push(
        (auditKinds as readonly string[]).includes(query.action)
          ? inArray(auditEvents.action, actionsOf(query.action as AuditKind))
          : eq(auditEvents.action, query.action),
      );
    }
    if (query.from) conditions.push(gte(auditEvents.at, new Date(`${query.from}T00:00:00Z`)));
    if (query.to) conditions.push(lt(auditEvents.at, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)));
    if (query.before) {
      // Older than the entry the last page ended with: compared in the database, so the
      // timestamps keep their microseconds. An entry removed since ends the list.
      conditions.push(
        sql`(${auditEvents.at}, ${auditEvents.id}) < (select e.at, e.id from audit_events e where e.id = ${Number(query.before)})`,
      );
    }

    const [rows, days] = await Promise.all([
      db
        .select()
        .from(auditEvents)
        .where(and(...conditions))
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(AUDIT_PAGE_SIZE + 1),
      retentionDays(),
    ]);
    const page = rows.slice(0, AUDIT_PAGE_SIZE);
    return {
      entries: page.map((row): AuditEntry => ({
        id: String(row.id),
        at: row.at.toISOString(),
        action: row.action,
        actorEmail: row.actorEmail,
        actorUserId: row.actorUserId,
        target: row.target,
        targetUserId: row.targetUserId,
        details: row.details,
        ip: row.ip,
      })),
      nextBefore: rows.length > AUDIT_PAGE_SIZE ? String(page.at(-1)!.id) : null,
      retentionDays: days,
      signIns: config.auth.mode === 'embedded' ? 'recorded' : 'external',
    };
  }

  /** Sets how long entries are kept; the change is an entry of its own. */
  async function setRetention(days: number, actor: AuditActor): Promise<{ retentionDays: number }> {
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ days: adminSettings.auditRetentionDays })
        .from(adminSettings)
        .for('update');
      await tx
        .insert(adminSettings)
        .values({ id: true, auditRetentionDays: days, updatedBy: actor.userId, updatedAt: new Date(now()) })
        .onConflictDoUpdate({
          target: adminSettings.id,
          set: { auditRetentionDays: days, updatedBy: actor.userId, updatedAt: new Date(now()) },
        });
      await recordAudit(tx, {
        action: 'audit.retention-set',
        actor: { userId: actor.userId, email: actor.email },
        target: 'Audit retention',
        details: { from: before?.days ?? DEFAULT_RETENTION_DAYS, to: days },
        ip: actor.ip,
      });
    });
    return { retentionDays: days };
  }

  /**
   * Removes the entries older than the retention, a batch per statement, and records how many
   * went (nothing when none did). Stops between batches when `signal` aborts.
   */
  async function purge(signal?: AbortSignal): Promise<number> {
    const days = await retentionDays();
    const cutoff = new Date(now() - days * DAY_MS);
    let removed = 0;
    for (;;) {
      if (signal?.aborted) break;
      const gone = await db
        .delete(auditEvents)
        .where(
          inArray(
            auditEvents.id,
            db
              .select({ id: auditEvents.id })
              .from(auditEvents)
              .where(lt(auditEvents.at, cutoff))
              .limit(PURGE_BATCH),
          ),
        )
        .returning({ id: auditEvents.id });
      removed += gone.length;
      if (gone.length < PURGE_BATCH) break;
    }
    if (removed > 0) {
      await recordAudit(db, {
        action: 'audit.purged',
        target: 'Audit log',
        details: { count: removed, retentionDays: days, olderThan: cutoff.toISOString() },
      });
      log.info({ removed, retentionDays: days }, 'old audit entries removed');
    }
    return removed;
  }

  scheduler.every({
    name: AUDIT_PURGE_TASK,
    intervalMs: DAY_MS,
    leaseMs: 10 * 60_000,
    run: async (signal) => {
      await purge(signal);
    },
  });

  return { list, setRetention, purge, retentionDays };
}

export type AdminAudit = ReturnType<typeof createAdminAudit>;
