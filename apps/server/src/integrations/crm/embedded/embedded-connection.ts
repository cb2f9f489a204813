import type { SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { rowsOf } from '../../../db/rows';
import { nextTurn } from '../../../lib/event-loop-turn';
import { ensureDemoCrmSeeded } from './seed';

/** Runs one statement on the demo CRM's crm_* tables and gives its rows. */
export type Rows = <T>(query: SQL) => Promise<T[]>;

/**
 * How the embedded CRM runs its statements: the data set is seeded before the first query
 * (`ensureDemoCrmSeeded`), and each statement takes a turn of the event loop of its own
 * (lib/event-loop-turn.ts).
 */
export function demoCrmRows(db: Db): Rows {
  return async <T>(query: SQL): Promise<T[]> => {
    await ensureDemoCrmSeeded(db);
    // Each statement in a turn of its own: on PGlite it holds the event loop while it runs.
    await nextTurn();
    return rowsOf<T>(db, query);
  };
}
