import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { rowsOf, type Executor } from '../../../db/rows';
import { DEMO_SEED, demoAnnualRevenue, generateDemoCrm } from './demo-data';

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
/**
 * Raised when the generator changes what it makes. An older data set is kept (its contacts may
 * be in someone's CSV files), and what the newer generator adds is filled in (upgrade below):
 * 2 gave accounts an annual revenue.
 */
export const DEMO_CRM_VERSION = 2;
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
  if (existing && existing.version >= DEMO_CRM_VERSION)
    return { seeded: false, anchorDate: existing.anchorDate };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const again = await markerOf(tx);
    if (again) {
      if (again.version < DEMO_CRM_VERSION) await upgrade(tx, again.version);
      return { seeded: false, anchorDate: again.anchorDate };
    }
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

async function markerOf(db: Executor): Promise<{ anchorDate: string; version: number } | null> {
  const [row] = await rowsOf<{ anchor_date: string; version: number }>(
    db,
    sql`select anchor_date::text as anchor_date, version from crm_seed where name = ${MARKER}`,
  );
  return row ? { anchorDate: row.anchor_date, version: row.version } : null;
}

/** Brings a data set of an older generator up to this one's, inside the seeding's lock. */
async function upgrade(db: Executor, from: number): Promise<void> {
  if (from < 2) {
    // Annual revenue is a function of the account alone: the same figures a new seeding gives.
    const accounts = await rowsOf<{ id: string; industry: string | null; employees: number }>(
      db,
      sql`select id, industry, employees from crm_accounts where annual_revenue is null and employees is not null`,
    );
    const revenues = accounts.map((a) => ({
      id: a.id,
      annual_revenue: demoAnnualRevenue({ id: a.id, industry: a.industry ?? '', employees: a.employees }),
    }));
    for (let i = 0; i < revenues.length; i += BATCH) {
      const batch = JSON.stringify(revenues.slice(i, i + BATCH));
      await db.execute(sql`update crm_accounts a set annual_revenue = r.annual_revenue
        from json_to_recordset(${batch}::json) as r(id text, annual_revenue bigint) where a.id = r.id`);
    }
  }
  await db.execute(sql`update crm_seed set version = ${DEMO_CRM_VERSION} where name = ${MARKER}`);
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
