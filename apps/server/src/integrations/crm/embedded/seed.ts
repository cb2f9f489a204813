import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { DEMO_SEED, generateDemoCrm } from './demo-data';

/**
 * Loads the demo CRM's data set once per database. Safe when several GEM instances start
 * together: one transaction takes an advisory lock, checks the marker row (`crm_seed`) and
 * writes every record and the marker, so another instance waits, then finds the marker.
 * Rows go in as one JSON parameter per batch (`json_populate_recordset`): a few statements, not
 * tens of thousands of parameters.
 */

/** Any constant; the same for every GEM instance on one database. */
const SEED_LOCK_KEY = 7_415_014;
const MARKER = 'demo';
/** Raised when the generator changes what it makes; an older data set is then left alone. */
export const DEMO_CRM_VERSION = 1;
/** Rows per INSERT. */
const BATCH = 5_000;

export type SeedResult = { seeded: boolean; anchorDate: string };

/**
 * Seeds the demo CRM unless it is there already. `anchorDate` (YYYY-MM-DD, default today, UTC)
 * is the day campaign dates count back from; only the first seeding's counts.
 */
export async function seedDemoCrm(
  db: Db,
  { anchorDate = new Date().toISOString().slice(0, 10), seed = DEMO_SEED } = {},
): Promise<SeedResult> {
  const existing = await markerOf(db);
  if (existing) return { seeded: false, anchorDate: existing };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const again = await markerOf(tx as unknown as Db);
    if (again) return { seeded: false, anchorDate: again };
    const data = generateDemoCrm({ seed, anchorDate });
    const insert = async (table: string, rows: object[]) => {
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = JSON.stringify(rows.slice(i, i + BATCH));
        // The table name is one of four constants below, never input.
        await tx.execute(
          sql`insert into ${sql.identifier(table)} select * from json_populate_recordset(null::${sql.identifier(table)}, ${batch}::json)`,
        );
      }
    };
    await insert('crm_campaigns', data.campaigns);
    await insert('crm_accounts', data.accounts);
    await insert('crm_contacts', data.contacts);
    await insert('crm_campaign_members', data.members);
    await tx.execute(
      sql`insert into crm_seed (name, version, anchor_date) values (${MARKER}, ${DEMO_CRM_VERSION}, ${anchorDate})`,
    );
    return { seeded: true, anchorDate };
  });
}

async function markerOf(db: Db): Promise<string | null> {
  const result = (await db.execute(
    sql`select anchor_date::text as anchor_date from crm_seed where name = ${MARKER}`,
  )) as unknown as { rows: { anchor_date: string }[] };
  return result.rows[0]?.anchor_date ?? null;
}

const seeding = new WeakMap<Db, Promise<void>>();

/**
 * Seeds the demo CRM the first time it is asked for in this process (memoized per database);
 * the embedded adapter calls it before its first query, so a process that never opens the
 * audience builder never generates or loads the data set. A failure is not memoized.
 */
export function ensureDemoCrmSeeded(db: Db): Promise<void> {
  let pending = seeding.get(db);
  if (!pending) {
    pending = seedDemoCrm(db).then(
      () => undefined,
      (error: unknown) => {
        seeding.delete(db);
        throw error;
      },
    );
    seeding.set(db, pending);
  }
  return pending;
}
