import { Worker } from 'node:worker_threads';

// The watchdog's thread: it waits, then kills the process. No module of GEM's, so the bundle
// needs no file for it.
const watchdogScript = `
const { workerData } = require('node:worker_threads');
setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);
`;

/**
 * Makes sure the process ends within `ms` from now: a thread of its own kills it (SIGKILL) if
 * it is still there then. A timer on the main thread is not enough: it cannot fire while the
 * main thread is stuck (a write that blocks, a handler that loops during exit), and a stuck
 * main thread does not hear a second SIGTERM either. This thread has its own event loop, and
 * SIGKILL is the one ending nothing in the process can delay. The thread is unref'd: it never
 * keeps the process alive, and a process that exits first takes it along.
 */
export function startExitWatchdog(ms: number, onError: (err: Error) => void = () => {}): void {
  const worker = new Worker(watchdogScript, {
    eval: true,
    execArgv: [],
    name: 'gem-exit-watchdog',
    workerData: { pid: process.pid, ms },
    resourceLimits: { maxOldGenerationSizeMb: 8 },
  });
  // A watchdog that could not start leaves the drain's own timer.
  worker.on('error', onError);
  worker.unref();
}
