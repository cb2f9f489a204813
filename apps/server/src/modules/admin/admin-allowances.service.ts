import {
  NEAR_LIMIT_SHARE,
  NO_SUCH_USER,
  type AllowanceUse,
  type AllowancesResponse,
} from '@gem/contracts/admin-allowances';
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { adminSettings, auditEvents, usageDaily, userAllowances, users } from '../../db/schema/index';
import { isoDay, monthStartOf, nextMonthStartOf } from '../../lib/ai/ai-allowance';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../../lib/audit';
import type { AdminDeps } from './admin.deps';

/**
 * The admin area's allowances (issue 30): the default monthly token allowance, each person's
 * own, and everyone's month so far against theirs. The AI platform enforces them
 * (lib/ai/ai-allowance.ts); this only reads and sets them, each change audited in its own
 * transaction.
 */

/** Who made a change, as the routes hand it in (req.user and req.ip). */
export type AdminActor = { userId: string; email: string | null; ip: string | null };

export function createAdminAllowances({ db, now = Date.now }: AdminDeps) {
  const setter = alias(users, 'setter');

  async function list(): Promise<AllowancesResponse> {
    const at = now();
    const monthStart = monthStartOf(at);
    const [settings] = await db
      .select({ monthlyTokens: adminSettings.defaultMonthlyTokens })
      .from(adminSettings)
      .where(eq(adminSettings.id, true));
    const defaultMonthlyTokens = settings?.monthlyTokens ?? null;
    const [lastDefault] = await db
      .select({ email: auditEvents.actorEmail, at: auditEvents.at })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'allowance.default-set'))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(1);

    const overrideRows = await db
      .select({
        userId: userAllowances.userId,
        email: users.email,
        name: users.displayName,
        monthlyTokens: userAllowances.monthlyTokens,
        setById: setter.id,
        setByEmail: setter.email,
        setByName: setter.displayName,
        setAt: userAllowances.setAt,
      })
      .from(userAllowances)
      .innerJoin(users, eq(users.id, userAllowances.userId))
      .leftJoin(setter, eq(setter.id, userAllowances.setBy))
      .orderBy(users.email, users.id);

    // Everyone GEM knows, with their tokens this month (0 for none).
    const people = await db
      .select({
        userId: users.id,
        email: users.email,
        name: users.displayName,
        tokens: sql<string>`coalesce(sum(${usageDaily.promptTokens} + ${usageDaily.completionTokens}), 0)`,
      })
      .from(users)
      .leftJoin(usageDaily, and(eq(usageDaily.userId, users.id), gte(usageDaily.day, isoDay(monthStart))))
      .groupBy(users.id, users.email, users.displayName);

    const own = new Map(overrideRows.map((row) => [row.userId, row.monthlyTokens]));
    const month: AllowanceUse[] = people.map(({ userId, email, name, tokens }) => {
      const person = { email, name, usedTokens: Number(tokens) };
      const monthlyTokens = own.get(userId) ?? defaultMonthlyTokens;
      // An allowance of 0 is used up from the start: a share of 1.
      const share =
        monthlyTokens === null ? null : monthlyTokens === 0 ? 1 : person.usedTokens / monthlyTokens;
      return {
        person: { userId, email: person.email, name: person.name },
        monthlyTokens,
        overridden: own.has(userId),
        usedTokens: person.usedTokens,
        share,
        nearLimit: share !== null && share >= NEAR_LIMIT_SHARE,
      };
    });
    // Largest share first (no limit last), then most tokens, then by e-mail.
    month.sort(
      (a, b) =>
        (b.share ?? -1) - (a.share ?? -1) ||
        b.usedTokens - a.usedTokens ||
        (a.person.email ?? '').localeCompare(b.person.email ?? ''),
    );

    return {
      defaultMonthlyTokens,
      defaultSetBy: lastDefault?.email ?? null,
      defaultSetAt: lastDefault ? lastDefault.at.toISOString() : null,
      overrides: overrideRows.map((row) => ({
        person: { userId: row.userId, email: row.email, name: row.name },
        monthlyTokens: row.monthlyTokens,
        setBy: row.setById ? { userId: row.setById, email: row.setByEmail, name: row.setByName } : null,
        setAt: row.setAt.toISOString(),
      })),
      month,
      monthStart: isoDay(monthStart),
      resetsAt: nextMonthStartOf(at).toISOString(),
    };
  }

  return {
    list,

    /** Sets the default allowance (null: no limit) and audits it with the value before. */
    async setDefault(monthlyTokens: number | null, actor: AdminActor): Promise<AllowancesResponse> {
      await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ monthlyTokens: adminSettings.defaultMonthlyTokens })
          .from(adminSettings)
          .where(eq(adminSettings.id, true))
          .for('update');
        await tx
          .insert(adminSettings)
          .values({
            id: true,
            defaultMonthlyTokens: monthlyTokens,
            updatedBy: actor.userId,
            updatedAt: new Date(now()),
          })
          .onConflictDoUpdate({
            target: adminSettings.id,
            set: { defaultMonthlyTokens: monthlyTokens, updatedBy: actor.userId, updatedAt: new Date(now()) },
          });
        await recordAudit(tx, {
          action: 'allowance.default-set',
          actor: { userId: actor.userId, email: actor.email },
          target: 'default monthly allowance',
          details: { from: before?.monthlyTokens ?? null, to: monthlyTokens },
          ip: actor.ip,
        });
      });
      return list();
    },

    /**
     * Sets a person's own allowance, or (null) removes it so the default applies again; audits
     * it with the value before. An unknown person is a 400 naming the field.
     */
    async setForUser(
      userId: string,
      monthlyTokens: number | null,
      actor: AdminActor,
    ): Promise<AllowancesResponse> {
      await db.transaction(async (tx) => {
        const [person] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
        if (!person) throw AppError.invalid([{ path: 'params.userId', message: NO_SUCH_USER }]);
        const [before] = await tx
          .select({ monthlyTokens: userAllowances.monthlyTokens })
          .from(userAllowances)
          .where(eq(userAllowances.userId, userId))
          .for('update');
        if (monthlyTokens === null) {
          await tx.delete(userAllowances).where(eq(userAllowances.userId, userId));
        } else {
          const row = { monthlyTokens, setBy: actor.userId, setAt: new Date(now()) };
          await tx
            .insert(userAllowances)
            .values({ userId, ...row })
            .onConflictDoUpdate({ target: userAllowances.userId, set: row });
        }
        await recordAudit(tx, {
          action: 'allowance.user-set',
          actor: { userId: actor.userId, email: actor.email },
          targetUserId: userId,
          target: person.email,
          details: { from: before?.monthlyTokens ?? null, to: monthlyTokens },
          ip: actor.ip,
        });
      });
      return list();
    },
  };
}

export type AdminAllowances = ReturnType<typeof createAdminAllowances>;
