import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Browser, signIn, type AuthConfig } from '../../../apps/server/test/embedded-sign-in';

/**
 * A cluster as `npm run cluster -- up` starts it (scripts/cluster.mjs): a private PostgreSQL in
 * a temporary folder, two built GEM instances on it and nginx in front, in a state folder of
 * the test's own, so test files never share one.
 */

export const root = path.resolve(import.meta.dirname, '../../..');
const script = path.join(root, 'scripts/cluster.mjs');

export type InstanceState = { name: string; pid: number; port: number; log: string };
export type ClusterState = {
  dir: string;
  proxyUrl: string;
  instances: InstanceState[];
  postgres: { url: string; private: boolean; home: string; dataDir: string; port: number; bin: string };
  nginx: { pid: number; port: number; conf: string; runDir: string };
};

export type Cluster = {
  /** nginx's address: the one people open (GEM_PUBLIC_URL). */
  url: string;
  state: ClusterState;
  /** What `up` printed. */
  upOutput: string;
  /** An instance's own address, bypassing nginx. */
  direct(instance: InstanceState): string;
  /** The instance that answered a request through nginx (its X-Gem-Upstream header). */
  instanceOf(res: Response): InstanceState | undefined;
  /** GEM's command-line tool on the cluster's database. */
  gem(args: string[], input?: string): { status: number | null; stdout: string; stderr: string };
  /** An instance's log so far. */
  log(instance: InstanceState): string;
  down(): Promise<void>;
};

export async function startCluster({
  env = {},
  readTimeout,
}: { env?: Record<string, string>; readTimeout?: string } = {}): Promise<Cluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gem-cluster-test-'));
  const args = [script, 'up', '--dir', dir];
  for (const [k, v] of Object.entries(env)) args.push('--env', `${k}=${v}`);
  if (readTimeout) args.push('--read-timeout', readTimeout);
  let upOutput: string;
  try {
    ({ stdout: upOutput } = await promisify(execFile)(process.execPath, args, { cwd: root }));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm run cluster -- up failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: err });
  }
  const state = JSON.parse(readFileSync(path.join(dir, 'state.json'), 'utf8')) as ClusterState;
  const byAddress = new Map(state.instances.map((i) => [`127.0.0.1:${i.port}`, i]));
  return {
    url: state.proxyUrl,
    state,
    upOutput,
    direct: (instance) => `http://127.0.0.1:${instance.port}`,
    instanceOf: (res) => {
      // With a retry nginx lists every instance it tried: the last one answered.
      const tried = (res.headers.get('x-gem-upstream') ?? '').split(',').map((s) => s.trim());
      return byAddress.get(tried.at(-1) ?? '');
    },
    gem: (gemArgs, input) => {
      const r = spawnSync(process.execPath, [script, 'gem', '--dir', dir, ...gemArgs], {
        cwd: root,
        input,
        encoding: 'utf8',
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    log: (instance) => readFileSync(instance.log, 'utf8'),
    async down() {
      // An instance that exited on its own: its log is the only account of why, and it goes with the folder.
      for (const instance of state.instances) {
        if (isRunning(instance.pid)) continue;
        const lines = readFileSync(instance.log, 'utf8').trimEnd().split('\n');
        if (lines.at(-1)?.includes('"msg":"stopped"')) continue; // stopped by the test, as it meant to
        process.stderr.write(
          `${instance.name} had exited; the end of its log:\n${lines.slice(-60).join('\n')}\n`,
        );
      }
      await promisify(execFile)(process.execPath, [script, 'down', '--dir', dir], { cwd: root });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Account = { email: string; password: string };

/** A local account made with GEM's tool (`accounts add --grant`), so each test has its own user. */
export function addAccount(cluster: Cluster, email: string, { grant = true } = {}): Account {
  const password = `pw-${email}-${Math.random().toString(36).slice(2)}`;
  const r = cluster.gem(['accounts', 'add', email, ...(grant ? ['--grant'] : [])], `${password}\n`);
  if (r.status !== 0) throw new Error(`accounts add ${email}: ${r.stderr}${r.stdout}`);
  return { email, password };
}

/** Signs in over HTTP through `origin` (the authorization code flow with PKCE); the access token. */
export async function accessToken(origin: string, account: Account): Promise<string> {
  const config = (await (await fetch(`${origin}/api/identity/auth-config`)).json()) as AuthConfig;
  const tokens = await signIn(new Browser(origin), config, account.email, account.password);
  return tokens.access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a process is still running (a zombie counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits for `check` to hold, polling; the time it took in ms. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** The lines of an NDJSON body as it arrives, and how the body ended. */
export async function readStream(
  res: Response,
  onLine?: (line: Record<string, unknown>) => void,
): Promise<{ lines: Record<string, unknown>[]; blankLines: number; broken: boolean }> {
  const lines: Record<string, unknown>[] = [];
  let blankLines = 0;
  let broken = false;
  let buffer = '';
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line === '') blankLines += 1;
        else {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          lines.push(parsed);
          onLine?.(parsed);
        }
        nl = buffer.indexOf('\n');
      }
    }
  } catch {
    broken = true;
  }
  return { lines, blankLines, broken };
}
