// GEM as it runs for real, on this machine: a private PostgreSQL, two built GEM instances on it
// and Debian's nginx in front of them (deploy/nginx.conf), each on a free port.
//
//   npm run cluster -- up [--instances 2] [--port <nginx port>] [--database-url <url>]
//                         [--env NAME=value]... [--read-timeout 180s] [--dir .cluster]
//   npm run cluster -- down [--dir .cluster]
//   npm run cluster -- status [--dir .cluster]
//   npm run cluster -- postgres <stop|start> [--mode fast|immediate]   the private PostgreSQL
//   npm run cluster -- gem <command...>   GEM's tool (accounts, access, competitors) on the
//                                          cluster's database, e.g. `gem access revoke <email>`
//
// `up` installs nothing: it checks for the build (npm run build), nginx and PostgreSQL's
// binaries and says what is missing. Without --database-url it runs initdb in a temporary folder
// and starts PostgreSQL there (removed again by `down`). It starts the instances at the same
// time (their migrations run once, under a lock), waits until each is ready, starts nginx, and
// prints the proxy's URL on its last line. `.cluster/state.json` has every process's pid and
// port; the logs are in `.cluster/logs/`. GEM_* variables of the calling environment reach the
// instances (e.g. the AI service's), and --env adds or overrides one.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { instanceEnv, startInstance } from './cluster/instances.mjs';
import { nginxConfig, nginxPid } from './cluster/nginx.mjs';
import { startPostgres, startPrivatePostgres, stopPostgres } from './cluster/postgres.mjs';
import { prerequisites } from './cluster/prerequisites.mjs';
import { answers, freePort, isRunning, stopProcess, tail, waitFor } from './cluster/processes.mjs';

const root = path.resolve(import.meta.dirname, '..');

const usage = `Usage: npm run cluster -- <up|down|status> [options]
  up      start PostgreSQL (private, unless --database-url), the GEM instances and nginx
            --instances <n>       GEM instances (default 2)
            --port <n>            nginx's port on 127.0.0.1 (default: a free one)
            --database-url <url>  use this PostgreSQL database instead of a private server
            --env NAME=value      a setting for every instance (repeatable)
            --read-timeout <t>    nginx's proxy_read_timeout (default 180s)
  down    stop everything 'up' started
  status  what runs, from the state file
  postgres stop|start [--mode fast|immediate]   stop or start the private PostgreSQL (faults)
  gem     GEM's command-line tool on the cluster's database (npm run cluster -- gem access list)
  --dir <folder>  where the state and the logs are kept (default .cluster)`;

// ---- up, down, status.

const stateFile = (dir) => path.join(dir, 'state.json');

export function readState(dir) {
  try {
    return JSON.parse(readFileSync(stateFile(dir), 'utf8'));
  } catch {
    return undefined;
  }
}

export async function up({
  dir = path.join(root, '.cluster'),
  instances = 2,
  port,
  databaseUrl,
  env = {},
  readTimeout = '180s',
  log = (line) => process.stdout.write(`${line}\n`),
} = {}) {
  dir = path.resolve(dir);
  const existing = readState(dir);
  if (existing && running(existing).length > 0) {
    throw new Error(`a cluster is already up (${stateFile(dir)}); run \`npm run cluster -- down\` first`);
  }
  const { missing, found } = prerequisites({ privatePostgres: !databaseUrl });
  if (missing.length > 0) {
    throw new Error(`cannot start; missing:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
  }
  const logDir = path.join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const state = { dir, startedAt: new Date().toISOString(), instances: [] };
  const save = () => writeFileSync(stateFile(dir), `${JSON.stringify(state, null, 2)}\n`);
  try {
    if (databaseUrl) {
      state.postgres = { url: databaseUrl, private: false };
    } else {
      log('starting a private PostgreSQL in a temporary folder');
      state.postgres = { ...(await startPrivatePostgres(found)), private: true };
    }
    save();

    const proxyPort = port ?? (await freePort());
    const publicUrl = `http://127.0.0.1:${proxyPort}`;
    const ports = [];
    for (let i = 0; i < instances; i += 1) ports.push(await freePort());
    log(`starting ${instances} GEM instances (ports ${ports.join(', ')}) on one database`);
    // All at once: their migrations run once, under the lock (apps/server/src/db/client.ts).
    state.env = env;
    for (const [i, p] of ports.entries()) {
      const name = `gem-${i + 1}`;
      const instanceEnvironment = instanceEnv({
        port: p,
        metricsPort: await freePort(),
        databaseUrl: state.postgres.url,
        publicUrl,
        extraEnv: env,
      });
      state.instances.push(startInstance({ name, port: p, env: instanceEnvironment, logDir }));
    }
    save();
    await Promise.all(
      state.instances.map((inst) =>
        waitFor(`${inst.name} ready`, () => answers(`http://127.0.0.1:${inst.port}/api/ready`), 60_000, {
          failFast: () => (isRunning(inst.pid) ? undefined : `it exited:\n${tail(inst.log)}`),
        }),
      ),
    );

    const runDir = mkdtempSync(path.join(tmpdir(), 'gem-cluster-nginx-'));
    chmodSync(runDir, 0o755);
    const conf = path.join(dir, 'nginx.conf');
    writeFileSync(
      conf,
      nginxConfig({
        listen: `127.0.0.1:${proxyPort}`,
        upstreamPorts: ports,
        runDir,
        logDir,
        readTimeout,
        // This machine only: which instance answered, for the tests (never in production).
        extraLocation: '      add_header X-Gem-Upstream $upstream_addr always;',
      }),
    );
    state.nginx = { port: proxyPort, conf, runDir, bin: found.nginx };
    save();
    const args = ['-p', runDir, '-c', conf];
    const test = spawnSync(found.nginx, [...args, '-t', '-q'], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx refused its configuration:\n${test.stderr}`);
    const started = spawnSync(found.nginx, args, { encoding: 'utf8' });
    if (started.status !== 0) throw new Error(`nginx did not start:\n${started.stderr}`);
    state.nginx.pid = nginxPid(runDir);
    state.proxyUrl = publicUrl;
    save();
    await waitFor('nginx', () => answers(`${publicUrl}/api/ready`), 10_000);
  } catch (err) {
    await down({ dir, log: () => undefined }).catch(() => undefined);
    throw err;
  }
  for (const inst of state.instances)
    log(`${inst.name}: pid ${inst.pid}, http://127.0.0.1:${inst.port} (${inst.log})`);
  log(
    `PostgreSQL: ${state.postgres.url}${state.postgres.private ? ` (private, ${state.postgres.home})` : ''}`,
  );
  log(`nginx: pid ${state.nginx.pid}, ${state.nginx.conf}`);
  log(`state: ${stateFile(dir)}; stop it all with \`npm run cluster -- down\``);
  log(state.proxyUrl);
  return state;
}

function running(state) {
  return [
    ...(state.instances ?? []).map((i) => i.pid),
    state.nginx?.pid,
    ...(state.postgres?.private && existsSync(path.join(state.postgres.dataDir ?? '', 'postmaster.pid'))
      ? [0]
      : []),
  ].filter((pid) => pid === 0 || isRunning(pid));
}

export async function down({ dir = path.join(root, '.cluster'), log = console.log } = {}) {
  dir = path.resolve(dir);
  const state = readState(dir);
  if (!state) {
    log(`nothing to stop (no ${stateFile(dir)})`);
    return;
  }
  if (state.nginx?.runDir) {
    const pid = state.nginx.pid ?? nginxPid(state.nginx.runDir);
    if (pid) await stopProcess(pid, { signal: 'SIGQUIT', graceMs: 5_000 });
    rmSync(state.nginx.runDir, { recursive: true, force: true });
    log('nginx stopped');
  }
  // SIGTERM: each instance finishes its requests in flight (GEM_SHUTDOWN_TIMEOUT_MS) and exits.
  await Promise.all((state.instances ?? []).map((inst) => stopProcess(inst.pid)));
  if (state.instances?.length) log(`${state.instances.length} GEM instances stopped`);
  if (state.postgres?.private && state.postgres.home) {
    if (existsSync(path.join(state.postgres.dataDir, 'postmaster.pid'))) {
      try {
        stopPostgres(state.postgres, 'fast');
      } catch (err) {
        log(String(err.message ?? err));
      }
    }
    rmSync(state.postgres.home, { recursive: true, force: true });
    log('PostgreSQL stopped and its temporary folder removed');
  }
  rmSync(stateFile(dir), { force: true });
}

function status(dir) {
  const state = readState(path.resolve(dir));
  if (!state) return console.log('down');
  for (const inst of state.instances ?? []) {
    console.log(
      `${inst.name}: pid ${inst.pid} ${isRunning(inst.pid) ? 'running' : 'gone'}, port ${inst.port}`,
    );
  }
  if (state.nginx)
    console.log(`nginx: pid ${state.nginx.pid} ${isRunning(state.nginx.pid) ? 'running' : 'gone'}`);
  if (state.postgres) console.log(`PostgreSQL: ${state.postgres.url}`);
  if (state.proxyUrl) console.log(state.proxyUrl);
}

/** Runs GEM's command-line tool (apps/server/dist/cli.js) on the cluster's database. */
export function gemTool(dir, args, { input } = {}) {
  const state = readState(path.resolve(dir));
  if (!state?.postgres) throw new Error('the cluster is not up');
  const env = instanceEnv({
    port: 0,
    metricsPort: 'off',
    databaseUrl: state.postgres.url,
    publicUrl: state.proxyUrl,
    extraEnv: state.env ?? {},
  });
  return spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli.js'), ...args], {
    cwd: root,
    env,
    input,
    encoding: 'utf8',
  });
}

// ---- Command line.

async function main() {
  if (process.argv[2] === 'gem') {
    const dirAt = process.argv.indexOf('--dir');
    const dir = dirAt > 0 ? process.argv[dirAt + 1] : path.join(root, '.cluster');
    const args = process.argv.slice(3).filter((_, i, all) => all[i] !== '--dir' && all[i - 1] !== '--dir');
    const r = gemTool(dir, args, { input: process.stdin.isTTY ? undefined : readFileSync(0) });
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    return r.status ?? 1;
  }
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      dir: { type: 'string', default: path.join(root, '.cluster') },
      instances: { type: 'string', default: '2' },
      port: { type: 'string' },
      'database-url': { type: 'string' },
      env: { type: 'string', multiple: true, default: [] },
      'read-timeout': { type: 'string', default: '180s' },
      mode: { type: 'string', default: 'fast' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command] = positionals;
  if (values.help || !command) {
    console.log(usage);
    return command || values.help ? 0 : 1;
  }
  if (command === 'up') {
    const env = {};
    for (const pair of values.env) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new Error(`--env ${pair}: expected NAME=value`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    await up({
      dir: values.dir,
      instances: Number(values.instances),
      port: values.port ? Number(values.port) : undefined,
      databaseUrl: values['database-url'],
      env,
      readTimeout: values['read-timeout'],
    });
    return 0;
  }
  if (command === 'down') {
    await down({ dir: values.dir });
    return 0;
  }
  if (command === 'postgres') {
    const state = readState(path.resolve(values.dir));
    if (!state?.postgres?.private) throw new Error('no private PostgreSQL is up');
    if (positionals[1] === 'stop') stopPostgres(state.postgres, values.mode);
    else if (positionals[1] === 'start') startPostgres(state.postgres);
    else throw new Error('postgres stop|start');
    return 0;
  }
  if (command === 'status') {
    status(values.dir);
    return 0;
  }
  console.error(usage);
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(`cluster: ${err.message ?? err}`);
      process.exit(1);
    },
  );
}
