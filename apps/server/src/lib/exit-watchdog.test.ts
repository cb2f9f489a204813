import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(import.meta.dirname, 'exit-watchdog.fixture.ts');

type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** Runs the fixture process; a process still there after 20 s is killed and reported as 'hung'. */
async function run(mode: 'stuck' | 'stuck-exiting' | 'done', watchdogMs: number): Promise<Exit | 'hung'> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, mode, String(watchdogMs)], {
    cwd: serverDir,
    stdio: 'ignore',
  });
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 20_000)));
  try {
    return await Promise.race([exited, hung]);
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

describe('the exit watchdog', () => {
  it('kills a process whose main thread is blocked for good', async () => {
    expect(await run('stuck', 1_000)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('kills a process stuck in an exit handler', async () => {
    expect(await run('stuck-exiting', 1_000)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('does not keep a process alive that ends by itself', async () => {
    expect(await run('done', 60_000)).toEqual({ code: 0, signal: null });
  });
});
