// Debian's nginx in front of the instances of scripts/cluster.mjs (deploy/nginx.conf).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asRoot } from './postgres.mjs';

const root = path.resolve(import.meta.dirname, '../..');

export function nginxConfig({ listen, upstreamPorts, runDir, logDir, readTimeout, extraLocation = '' }) {
  const template = readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');
  const fields = {
    USER: asRoot ? 'www-data' : 'nobody',
    WORKER_PROCESSES: '1',
    RUN_DIR: runDir,
    LOG_DIR: logDir,
    ACCESS_LOG: `${logDir}/nginx-access.log`,
    LISTEN: listen,
    UPSTREAM_SERVERS: upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n'),
    READ_TIMEOUT: readTimeout,
    EXTRA_LOCATION: extraLocation,
  };
  const conf = template.replace(/\{\{([A-Z_]+)\}\}/g, (_, key) => {
    if (!(key in fields)) throw new Error(`deploy/nginx.conf: unknown field {{${key}}}`);
    return fields[key];
  });
  // Not root: nginx warns that `user` means nothing; leave it out.
  return asRoot ? conf : conf.replace(/^user .*\n/m, '');
}

export function nginxPid(runDir) {
  try {
    return Number(readFileSync(path.join(runDir, 'nginx.pid'), 'utf8').trim());
  } catch {
    return undefined;
  }
}
