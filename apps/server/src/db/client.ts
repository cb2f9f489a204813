import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Log } from '../lib/logger';
import * as schema from './schema/index';

/** The drizzle handle modules use. Same API over PGlite and the PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction's handle, for a step that must run inside one (`db.transaction(async (tx) => …)`). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * The PostgreSQL pool's connections now, for the metrics (lib/metrics.ts). PGlite has none:
   * one connection inside the process.
   */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
};

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolMax: number }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite'; client: PGlite };

// Any constant works: it only has to be the same for every GEM instance on one database.
const MIGRATION_LOCK_KEY = 7_415_001;

/**
 * PostgreSQL settings for the embedded database, on top of PGlite's own start parameters.
 * PostgreSQL allocates its shared memory (shared_buffers, 128MB by default, and what is sized
 * from it) at start, inside PGlite's WebAssembly heap, where it is zeroed, so resident at once,
 * and never given back. 16MB holds GEM's working set; pages beyond it are read back from the
 * data folder (the operating system's file cache). bench/memory.md has the figures.
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * V8 compiles PGlite's 9 MB of WebAssembly twice: at once with its baseline compiler (Liftoff),
 * then again, function by function as they run, with its optimizing one (TurboFan), and keeps
 * both. Liftoff only saves about 50 MB of resident memory and the CPU of the second compile;
 * GEM's queries ran no slower (bench/memory.md). A process-wide V8 setting, read when a
 * WebAssembly module is compiled: set before the first PGlite starts.
 */
const WASM_COMPILER_FLAG = '--liftoff-only';
let wasmCompilerSet = false;
function useLiftoffOnly() {
  if (wasmCompilerSet) return;
  setFlagsFromString(WASM_COMPILER_FLAG);
  wasmCompilerSet = true;
}

/** How GEM opens (and creates) an embedded database. */
const pgliteOptions: PGliteOptions = {
  startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  // initdb writes them into the new folder's postgresql.conf as well.
  initDbStartParams: PGLITE_SETTINGS,
};

/**
 * Settings for every connection GEM opens. `synchronize_seqscans` off: a sequential scan of a
 * table larger than a quarter of shared_buffers otherwise starts where the last one stopped, so a
 * scan that stops early (the competitor search's count stops at 1,000 matches) reads a different,
 * uncached part of the table every time instead of the same, cached first pages: 12.9 against
 * 5.5 ms of PostgreSQL CPU for a common word's search (bench/competitor-search.md). GEM runs no
 * concurrent full scans that would share their reads.
 */
const SESSION_SETTINGS = 'set synchronize_seqscans = off';

/** Opens the database and applies pending migrations from `migrationsDir`. */
export async function openDatabase(
  options: DatabaseOptions,
  migrationsDir: string,
  /** Where a PostgreSQL pool reports a pooled connection that failed while idle. */
  log?: Pick<Log, 'warn'>,
): Promise<Database> {
  if (options.kind === 'postgres') return openPostgres(options.url, options.poolMax, migrationsDir, log);

  let client: PGlite;
  let unlock = () => undefined as void;
  if ('client' in options) {
    client = options.client;
  } else {
    // PGlite creates only the last folder of its data path.
    mkdirSync(path.dirname(path.resolve(options.dataDir)), { recursive: true });
    unlock = lockDataDir(options.dataDir);
    try {
      if (!existsSync(path.join(options.dataDir, 'PG_VERSION'))) await createDataDir(options.dataDir);
      useLiftoffOnly();
      client = await PGlite.create(options.dataDir, pgliteOptions);
    } catch (err) {
      unlock();
      throw err;
    }
  }
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  await migratePglite(db, { migrationsFolder: migrationsDir });
  await client.exec(SESSION_SETTINGS);
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

/**
 * Makes a new PGlite data folder (initdb) in a short-lived Node process. PGlite runs initdb in a
 * second PostgreSQL instance with its own WebAssembly heap, a copy of that heap and the new
 * folder as an in-memory tar: about 500 MB that a server process would keep (garbage it collects
 * late, and memory the C allocator keeps once freed). A process of its own gives it all back when
 * it exits; the server then opens the folder as it opens an existing one.
 */
async function createDataDir(dataDir: string) {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script =
    'require(process.argv[1]).PGlite.create(process.argv[2], JSON.parse(process.argv[3])).then((db) => db.close())';
  try {
    await promisify(execFile)(process.execPath, [
      WASM_COMPILER_FLAG,
      '-e',
      script,
      pglite,
      dataDir,
      JSON.stringify(pgliteOptions),
    ]);
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(
      `could not create the embedded database in ${dataDir}: ${stderr?.trim() || String(err)}`,
      {
        cause: err,
      },
    );
  }
}

/** Another process has the embedded database open. */
export class DatabaseLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is open in another GEM process (pid ${pid}). ` +
        'PGlite serves one process at a time: stop that process first, or use a PostgreSQL server (DATABASE_URL).',
    );
    this.name = 'DatabaseLockedError';
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite opens a data folder that another process is using without complaint, and two
 * writers corrupt it. A lock file holding the owner's pid stops that; a stale one (its
 * process gone) is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'gem-process.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(existsSync(lockFile) ? readFileSync(lockFile, 'utf8').trim() : NaN);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseLockedError(dataDir, owner);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

/** How long a request waits for a connection before it fails (503): never for ever. */
const CONNECT_TIMEOUT_MS = 5_000;

async function openPostgres(
  url: string,
  poolMax: number,
  migrationsDir: string,
  log?: Pick<Log, 'warn'>,
): Promise<Database> {
  // Loaded for PostgreSQL only: a GEM on the embedded database never holds the pg driver.
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Run on each new connection before the pool hands it out (a startup `options` parameter
    // would do the same, but connection poolers such as PgBouncer refuse it). @types/pg types
    // the hook as returning void; the pool awaits the promise it returns. A connection the
    // settings could not be applied to still works.
    onConnect: (client) =>
      client.query(SESSION_SETTINGS).then(
        () => undefined,
        (err: unknown) => {
          log?.warn({ err }, 'could not apply the session settings to a new PostgreSQL connection');
        },
      ),
  });
  // An idle connection the server ends (a restart, a failover) is an 'error' on the pool; without a
  // listener it would be an uncaught error that stops GEM. The pool replaces it on the next query.
  pool.on('error', (err) => {
    log?.warn({ err }, 'a pooled PostgreSQL connection failed; the next query opens a new one');
  });
  // The pool listens only while a connection is idle. One taken out for a transaction that the
  // server ends (a restart, a failover) would stop GEM with an uncaught error: this listener keeps
  // it alive. The transaction's query fails, and the pool drops the connection when it is released.
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      log?.warn({ err }, 'a PostgreSQL connection in use failed; its transaction is rolled back');
    });
  });
  try {
    // Several instances may start at once against one database: migrate under a lock.
    const conn = await pool.connect();
    try {
      await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg({ client: conn, schema, casing: 'snake_case' }), {
        migrationsFolder: migrationsDir,
      });
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      conn.release();
    }
  } catch (err) {
    await pool.end();
    throw err;
  }
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: poolMax,
    }),
    close: () => pool.end(),
  };
}

/** Error codes of a database that cannot be reached or is going away (not of a bad query). */
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// SQLSTATE 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
const unavailableStates = new Set(['57P01', '57P02', '57P03']);
const unavailableMessages =
  /^(?:Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether `err` (or an error it wraps: drizzle puts the driver's in `cause`) says the database
 * cannot be reached right now: the answer is then a 503 to try again, not a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (unavailableCodes.has(code) || unavailableStates.has(code) || code.startsWith('08'))
    ) {
      return true;
    }
    if (unavailableMessages.test(e.message)) return true;
  }
  return false;
}
