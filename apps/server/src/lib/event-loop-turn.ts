import { setImmediate as immediate } from 'node:timers/promises';

/**
 * A turn of the event loop for one slice of work done on the main thread, such as a statement
 * on the embedded database (PGlite runs PostgreSQL in this thread, as WebAssembly: a statement
 * holds the loop until it ends). Without turns, statements awaited one after another run back
 * to back, and so do those of several requests, since a promise's continuation never waits for
 * I/O: four exports' pages would add up into one stall. With them, each slice starts in a later
 * iteration of the loop than the slice before it, whoever asked, so the loop polls for I/O in
 * between and the longest stall is one slice. First come, first served; one queue per process,
 * as there is one event loop.
 */

let last: Promise<void> = Promise.resolve();

/** Resolves in an event loop iteration after the one that ended the turn before it. */
export function nextTurn(): Promise<void> {
  // Scheduled when the turn before has resolved (inside the loop's check phase), setImmediate
  // runs in the next iteration, after that iteration's poll for I/O.
  const turn = last.then(() => immediate());
  last = turn;
  return turn;
}
