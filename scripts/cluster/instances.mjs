// The built GEM instances of scripts/cluster.mjs.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS, serverEnv } from '../server-runtime.mjs';

const root = path.resolve(import.meta.dirname, '../..');

export function instanceEnv({ port, metricsPort, databaseUrl, publicUrl, extraEnv }) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k.startsWith('GEM_') || k === 'NODE_ENV'),
  );
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...inherited,
    PORT: String(port),
    GEM_HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    // The address people open: nginx's. The embedded sign-in's issuer is GEM_PUBLIC_URL/oidc.
    GEM_PUBLIC_URL: publicUrl,
    // One proxy in front: nginx, which sets X-Forwarded-For to the client's address.
    GEM_TRUST_PROXY: '1',
    GEM_LOG_PRETTY: 'false',
    // Each instance its own metrics port (instances on one machine cannot share one).
    GEM_METRICS_PORT: String(metricsPort),
    ...extraEnv,
  };
}

/** Starts one built GEM instance, detached, its output in its log file; returns its pid. */
export function startInstance({ name, port, env, logDir }) {
  const log = path.join(logDir, `${name}.log`);
  const fd = openSync(log, 'a');
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, path.join(root, 'apps/server/dist/server.js')],
    {
      cwd: root,
      env: serverEnv(env),
      detached: true,
      stdio: ['ignore', fd, fd],
    },
  );
  child.unref();
  closeSync(fd);
  return { name, pid: child.pid, port, log };
}
