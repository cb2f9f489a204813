import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { testConfig } from './test-config';
import { openDatabase, type Database } from '../src/db/client';

/**
 * A fresh, migrated database for one test file: a PGlite copy of the template, or a new
 * PostgreSQL database cloned from the template database. close() throws it away.
 */
export async function createTestDatabase(): Promise<Database> {
  const { migrationsDir } = testConfig();
  if (inject('dbKind') === 'postgres') {
    const name = `gem_test_${randomBytes(4).toString('hex')}_${process.pid}`;
    const adminUrl = inject('postgresUrl');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('dbTemplate')}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 5 }, migrationsDir);
    return {
      ...database,
      close: async () => {
        await database.close();
        await admin.query(`drop database if exists ${name}`);
        await admin.end();
      },
    };
  }
  const dump = new Blob([readFileSync(inject('dbTemplate'))]);
  const client = await PGlite.create({ loadDataDir: dump });
  return openDatabase({ kind: 'pglite', client }, migrationsDir);
}
