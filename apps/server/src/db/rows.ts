import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/** What runs a raw statement: the database, or a transaction of it. */
export type Executor = Pick<Db, 'execute'>;

/**
 * The rows of a raw statement, typed as the statement selects them. Drizzle types what
 * `execute` answers by the driver, which `Db` leaves open (PGlite or pg); both answer `{ rows }`.
 * Nothing checks `T` against the SQL: alias every column to the name `T` gives it.
 */
export async function rowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}
