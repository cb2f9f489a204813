import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export type RunningGem = { baseURL: string; stop: () => Promise<void> };

/**
 * The built server as `npm start` runs it, on a free loopback port with the given settings
 * (nothing else of this process's environment but PATH); resolves once /api/ready answers.
 */
export async function startGem(env: Record<string, string>): Promise<RunningGem> {
  const bundle = path.join(root, 'apps/server/dist/server.js');
  if (!existsSync(bundle) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('Build the app first: npm run build');
  }
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let log = '';
  const server: ChildProcess = spawn(process.execPath, [bundle], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: String(port), GEM_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (c) => (log += c));
  server.stderr?.on('data', (c) => (log += c));
  const stop = async () => {
    if (server.exitCode !== null) return;
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  };

  const deadline = Date.now() + 45_000;
  for (;;) {
    const ok = await fetch(`${baseURL}/api/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { baseURL, stop };
    if (server.exitCode !== null || Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error(`The GEM server did not become ready:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
