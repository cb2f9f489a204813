import { startExitWatchdog } from './exit-watchdog';

/**
 * A process for exit-watchdog.test.ts: it starts the watchdog (`ms`), then
 * - `stuck`: blocks its main thread for good, as a write that never returns would;
 * - `stuck-exiting`: exits, and an exit handler never returns (pino's old flush at exit);
 * - `done`: has nothing left to do, so it ends by itself.
 */
const [mode, ms] = process.argv.slice(2);
startExitWatchdog(Number(ms));

const blockForGood = () => {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(cell, 0, 0);
};

// Blocked only once the watchdog's thread is up, so the test is about the block, not the start.
setTimeout(() => {
  if (mode === 'stuck') blockForGood();
  if (mode === 'stuck-exiting') {
    process.on('exit', blockForGood);
    process.exit(0);
  }
}, 200);
