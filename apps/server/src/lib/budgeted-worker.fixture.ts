import { serveBudgetedWorker } from './budgeted-worker';

/** A worker for budgeted-worker.test.ts: echoes a word in capitals, or never answers. */
export type FixtureRequest = { word: string } | { spin: true };

serveBudgetedWorker((request: FixtureRequest): string => {
  if ('word' in request) return request.word.toUpperCase();
  for (;;) {
    // Busy for good: only terminating the worker ends this.
  }
});
