import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database';
import { testConfig } from '../../test/test-config';
import { DatabaseLockedError, openDatabase, type Database } from './client';
import { rowsOf } from './rows';
import { users } from './schema/users';

const { migrationsDir } = testConfig();
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('database', () => {
  it('runs on the database this project is meant to test', () => {
    expect(database.kind).toBe(inject('dbKind'));
  });

  it('scans a large table from its start every time (synchronize_seqscans off, on every connection)', async () => {
    // Ten at once: on PostgreSQL, more than one pooled connection.
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        rowsOf<{ synchronize_seqscans: string }>(database.db, sql`show synchronize_seqscans`),
      ),
    );
    for (const rows of results) expect(rows[0]?.synchronize_seqscans).toBe('off');
  });

  it('has the migrated schema: a user is one issuer + subject, whatever the e-mail', async () => {
    const anna = { issuer: 'https://idp.example', subject: 'anna', email: 'anna.nowak@example.com' };
    await database.db.insert(users).values(anna);
    await expect(database.db.insert(users).values({ ...anna, email: 'other@example.com' })).rejects.toThrow();
    const rows = await database.db.select().from(users);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.runIf(inject('dbKind') === 'pglite')(
    'creates the PGlite data folder, keeps other processes out, and reopens it without migrating twice',
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'gem-data-'));
      const dataDir = path.join(root, 'nested', 'data');
      const sharedBuffers = async (database: Database) => {
        const [row] = await rowsOf<{ shared_buffers: string }>(database.db, sql`show shared_buffers`);
        return row?.shared_buffers;
      };
      try {
        const first = await openDatabase({ kind: 'pglite', dataDir }, migrationsDir);
        // GEM's settings (bench/memory.md), in the new folder's postgresql.conf too.
        expect(await sharedBuffers(first)).toBe('16MB');
        expect(readFileSync(path.join(dataDir, 'postgresql.conf'), 'utf8')).toMatch(
          /^shared_buffers = 16MB/m,
        );
        await first.db.insert(users).values({ issuer: 'https://idp.example', subject: 'kept' });
        // PGlite would open it twice and corrupt it: a second process is refused while one has it.
        const lockFile = path.join(dataDir, 'gem-process.lock');
        writeFileSync(lockFile, String(process.ppid));
        await expect(openDatabase({ kind: 'pglite', dataDir }, migrationsDir)).rejects.toThrow(
          DatabaseLockedError,
        );
        writeFileSync(lockFile, String(process.pid));
        await first.close();
        // A lock left by a process that is gone is taken over.
        writeFileSync(lockFile, '999999999');
        const again = await openDatabase({ kind: 'pglite', dataDir }, migrationsDir);
        const rows = await again.db.select({ n: count() }).from(users);
        expect(rows[0]?.n).toBe(1);
        expect(await sharedBuffers(again)).toBe('16MB');
        await again.close();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
    30_000,
  );

  it.runIf(inject('dbKind') === 'postgres')(
    'lets several instances start at once on one new database',
    async () => {
      const adminUrl = inject('postgresUrl');
      const name = `gem_test_concurrent_${process.pid}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      try {
        const instances = await Promise.all(
          [1, 2, 3].map(() =>
            openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 2 }, migrationsDir),
          ),
        );
        for (const instance of instances) await instance.ping();
        await Promise.all(instances.map((i) => i.close()));
      } finally {
        await admin.query(`drop database if exists ${name}`);
        await admin.end();
      }
    },
  );

  it.runIf(inject('dbKind') === 'postgres')(
    'keeps running when the server ends a connection in the middle of a transaction (a restart, a failover)',
    async () => {
      // A connection taken from the pool for a transaction has no pool listener for 'error':
      // without GEM's own, the server ending it is an uncaught error that stops the process.
      const admin = new pg.Client({ connectionString: inject('postgresUrl') });
      await admin.connect();
      try {
        const inside = database.db.transaction(async (tx) => {
          const [row] = await rowsOf<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
          await admin.query('select pg_terminate_backend($1)', [row?.pid]);
          // The server's notice of the end arrives while this transaction waits between queries.
          await new Promise((r) => setTimeout(r, 200));
          await rowsOf(tx, sql`select 1`);
        });
        await expect(inside).rejects.toThrow();
        // The pool dropped the ended connection: the next query opens a new one.
        const rows = await rowsOf<{ one: number }>(database.db, sql`select 1 as one`);
        expect(rows[0]?.one).toBe(1);
      } finally {
        await admin.end();
      }
    },
  );
});
