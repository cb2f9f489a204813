import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { testConfig } from './test-config';
import { openDatabase } from '../src/db/client';
import { scanCapture } from './log-scan';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Which database this project's tests run on. */
    dbKind: 'pglite' | 'postgres';
    /** pglite: a dump of a migrated database; postgres: a migrated template database name. */
    dbTemplate: string;
    postgresUrl: string;
  }
}

/**
 * Migrates one template database per run, so each test file gets a fresh, migrated
 * database by copying it instead of paying initdb and migrations again. The test apps' logs
 * are captured (log-capture.ts) and scanned for secrets once every test has run (log-scan.ts):
 * a leak fails the run.
 */
export default async function setup(project: TestProject) {
  const captureDir = mkdtempSync(path.join(tmpdir(), 'gem-test-logs-'));
  project.provide('logCaptureDir', captureDir);
  const teardown = await setupDatabase(project);
  return async () => {
    await teardown();
    try {
      scanCapture(captureDir, project.name);
    } finally {
      // GEM_TEST_KEEP_LOGS=1 keeps the capture to read.
      if (process.env.GEM_TEST_KEEP_LOGS) process.stdout.write(`test apps' logs kept in ${captureDir}\n`);
      else rmSync(captureDir, { recursive: true, force: true });
    }
  };
}

async function setupDatabase(project: TestProject): Promise<() => void | Promise<void>> {
  const { migrationsDir } = testConfig();
  const postgresUrl = project.config.env?.TEST_DATABASE_URL;
  if (postgresUrl) {
    const templateName = `gem_test_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${templateName}`);
    await admin.query(`create database ${templateName}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${templateName}`;
    const template = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 1 }, migrationsDir);
    await template.close();
    project.provide('dbKind', 'postgres');
    project.provide('dbTemplate', templateName);
    project.provide('postgresUrl', postgresUrl);
    return async () => {
      // Databases of test files that crashed before cleaning up go too.
      const left = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1`,
        [`gem_test_%_${process.pid}%`],
      );
      for (const { datname } of left.rows) await admin.query(`drop database if exists "${datname}"`);
      await admin.query(`drop database if exists ${templateName}`);
      await admin.end();
    };
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'gem-pglite-template-'));
  const client = new PGlite();
  const template = await openDatabase({ kind: 'pglite', client }, migrationsDir);
  const dump = await client.dumpDataDir('none');
  await template.close();
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('dbKind', 'pglite');
  project.provide('dbTemplate', file);
  project.provide('postgresUrl', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
