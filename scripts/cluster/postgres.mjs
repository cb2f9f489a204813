// A private PostgreSQL in a temporary folder, for scripts/cluster.mjs.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './processes.mjs';

// PostgreSQL refuses to run as root: then its commands run as the postgres user.
export const asRoot = process.getuid?.() === 0;
export function postgresUser() {
  if (!asRoot) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export function runPg(bin, args, opts = {}) {
  const user = postgresUser();
  const [cmd, argv] = user ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    throw new Error(`${path.basename(bin)} failed (${r.status}): ${(r.stderr || r.stdout || '').trim()}`);
  }
  return r.stdout;
}

/** initdb in a new temporary folder, then the server on a free port; returns its description. */
export async function startPrivatePostgres(bins) {
  const home = mkdtempSync(path.join(tmpdir(), 'gem-cluster-pg-'));
  const dataDir = path.join(home, 'data');
  const user = postgresUser();
  if (user) {
    chownSync(home, user.uid, user.gid);
  }
  chmodSync(home, 0o700);
  runPg(bins.initdb, [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const port = await freePort();
  const pg = { home, dataDir, port, bin: path.dirname(bins.pg_ctl), log: path.join(home, 'postgres.log') };
  startPostgres(pg);
  runPg(bins.createdb, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'gem']);
  return { ...pg, url: `postgres://postgres@127.0.0.1:${port}/gem` };
}

/** Starts (or starts again) a private PostgreSQL that `up` made; waits until it accepts connections. */
export function startPostgres(pg) {
  runPg(path.join(pg.bin, 'pg_ctl'), [
    '-D',
    pg.dataDir,
    '-l',
    pg.log,
    '-w',
    '-t',
    '30',
    '-o',
    `-p ${pg.port} -k ${pg.home} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    'start',
  ]);
}

/** Stops a private PostgreSQL: `fast` ends the sessions, `immediate` is a crash. */
export function stopPostgres(pg, mode = 'fast') {
  runPg(path.join(pg.bin, 'pg_ctl'), ['-D', pg.dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
}
