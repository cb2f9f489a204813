import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';

/**
 * Issue 15: the process exits after SIGTERM whatever happens to whatever reads its output. The
 * real process entry (src/server.ts) runs with its output piped to this test, which stops
 * reading it, or goes away, as a parent that exits does.
 *
 * A line still waiting to be written when the process exits is what used to hang it: pino's
 * destination flushed it synchronously at exit and wrote it again every 100 ms, for ever, as
 * long as the write failed (EAGAIN from a reader that does not read, EPIPE from one that has
 * gone). The server is made to write more than the pipe holds first, so lines are waiting.
 */

const serverDir = path.resolve(import.meta.dirname, '..');
const dataRoot = mkdtempSync(path.join(tmpdir(), 'gem-exit-'));
afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

const shutdownTimeoutMs = 5_000;
/** Exiting is bounded by the drain's timeout; past this, the process is taken to hang. */
const hangAfterMs = shutdownTimeoutMs + 5_000;

type Exit = { code: number | null; signal: NodeJS.Signals | null };
type ServerProcess = ChildProcessByStdio<null, Readable, Readable>;

const started: ServerProcess[] = [];
afterEach(() => {
  // A process that hung is not left behind.
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the server with its output piped here, and resolves once it has logged that it is ready. */
async function startServer(name: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      GEM_EMBEDDED_IDP: 'true',
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      GEM_DATA_DIR: path.join(dataRoot, name),
      GEM_SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const ready = new Promise<boolean>((resolve) => {
    const onData = (c: Buffer) => {
      stdout += c.toString();
      if (!stdout.includes('"msg":"GEM is ready"')) return;
      child.stdout.off('data', onData);
      resolve(true);
    };
    child.stdout.on('data', onData);
    void exited.then(() => resolve(false));
  });
  expect(await ready, stderr).toBe(true);
  return { child, exited, origin: `http://127.0.0.1:${port}` };
}

/**
 * Stops reading the server's output, then has it log more than a pipe holds: each request's
 * line carries its path, 8,000 characters here, and 100 of them are far more than the kernel
 * keeps for a reader (about 200 kB on Linux).
 */
async function backUpOutput(child: ServerProcess, origin: string) {
  child.stdout.pause();
  const longPath = `/api/${'x'.repeat(8_000)}`;
  // The answer does not matter (a refusal); its line in the log does.
  for (let i = 0; i < 100; i++) await (await fetch(origin + longPath)).arrayBuffer();
}

/** How the process ended, or 'hung' when it was still running well after the drain's timeout. */
async function exitOf(exited: Promise<Exit>): Promise<Exit | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), hangAfterMs)));
  try {
    return await Promise.race([exited, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe.runIf(inject('dbKind') === 'pglite')('the server process after SIGTERM', () => {
  it('exits when whatever read its output goes away at once (the parent exits)', async () => {
    const { child, exited, origin } = await startServer('reader-gone');
    await backUpOutput(child, origin);

    child.kill('SIGTERM');
    child.stdout.destroy();
    child.stderr.destroy();

    expect(await exitOf(exited)).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('exits when whatever reads its output has stopped reading', async () => {
    const { child, exited, origin } = await startServer('reader-stalled');
    await backUpOutput(child, origin);

    child.kill('SIGTERM');

    expect(await exitOf(exited)).toEqual({ code: 0, signal: null });
  }, 60_000);
});
