import { and, eq, lt, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../../db/client';
import { oidcModels } from '../../../db/schema/index';

/**
 * oidc-provider's storage in PostgreSQL: one row per model instance, keyed by model name and
 * id, so sessions, codes, grants and refresh tokens survive restarts and are shared by every
 * GEM instance. Expired rows read as absent and are swept by deleteExpired().
 */
export function createAdapterFactory(db: Db, now: () => number = Date.now) {
  return (model: string): Adapter => {
    const live = () => sql`(${oidcModels.expiresAt} is null or ${oidcModels.expiresAt} > ${new Date(now())})`;

    const findBy = async (
      column: typeof oidcModels.id | typeof oidcModels.uid | typeof oidcModels.userCode,
      value: string,
    ) => {
      const [row] = await db
        .select({ payload: oidcModels.payload, consumedAt: oidcModels.consumedAt })
        .from(oidcModels)
        .where(and(eq(oidcModels.model, model), eq(column, value), live()))
        .limit(1);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    };

    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = expiresIn ? new Date(now() + expiresIn * 1000) : null;
        const values = {
          payload,
          grantId: payload.grantId ?? null,
          userCode: payload.userCode ?? null,
          uid: payload.uid ?? null,
          expiresAt,
        };
        await db
          .insert(oidcModels)
          .values({ model, id, ...values })
          .onConflictDoUpdate({ target: [oidcModels.model, oidcModels.id], set: values });
      },
      find: (id) => findBy(oidcModels.id, id),
      findByUid: (uid) => findBy(oidcModels.uid, uid),
      findByUserCode: (userCode) => findBy(oidcModels.userCode, userCode),
      async consume(id) {
        await db
          .update(oidcModels)
          .set({ consumedAt: new Date(now()) })
          .where(and(eq(oidcModels.model, model), eq(oidcModels.id, id)));
      },
      async destroy(id) {
        await db.delete(oidcModels).where(and(eq(oidcModels.model, model), eq(oidcModels.id, id)));
      },
      async revokeByGrantId(grantId) {
        // Every artefact of the grant, whatever its model (codes, access and refresh tokens).
        await db.delete(oidcModels).where(eq(oidcModels.grantId, grantId));
      },
    };
  };
}

/** Removes expired provider state; safe to run from any instance at any time. */
export async function deleteExpired(db: Db, now: () => number = Date.now) {
  await db.delete(oidcModels).where(lt(oidcModels.expiresAt, new Date(now())));
}
