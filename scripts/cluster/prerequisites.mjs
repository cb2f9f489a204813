// What the machine must have for scripts/cluster.mjs: the build, nginx, PostgreSQL's binaries.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export function which(name, extraDirs = []) {
  for (const dir of [...(process.env.PATH ?? '').split(':'), ...extraDirs]) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

export function postgresBinDirs() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(base, v, 'bin'));
}

/** Everything `up` needs, or the list of what is missing with how to get it. */
export function prerequisites({ privatePostgres }) {
  const missing = [];
  const found = {};
  if (!existsSync(path.join(root, 'apps/server/dist/server.js'))) {
    missing.push('the built server (apps/server/dist/server.js): run `npm run build`');
  }
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    missing.push('the built web app (apps/web/dist/index.html): run `npm run build`');
  }
  found.nginx = which('nginx', ['/usr/sbin', '/sbin']);
  if (!found.nginx) missing.push("nginx: `apt-get install -y nginx` (Debian's package)");
  if (privatePostgres) {
    const dirs = postgresBinDirs();
    for (const bin of ['initdb', 'pg_ctl', 'postgres', 'createdb']) {
      // Debian keeps the server's binaries out of PATH; its pg_ctl wrapper needs a cluster.
      found[bin] = dirs.map((d) => path.join(d, bin)).find((p) => existsSync(p)) ?? which(bin);
      if (!found[bin]) {
        missing.push(
          `PostgreSQL's ${bin}: \`apt-get install -y postgresql\`, or pass --database-url to use a running server`,
        );
      }
    }
  }
  return { missing, found };
}
