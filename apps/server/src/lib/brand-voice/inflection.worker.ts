import { parentPort } from 'node:worker_threads';
import { type ExpandedTerm, loadPolishDictionary } from './inflection-core';

/**
 * The inflection thread (inflection.ts starts it through lib/budgeted-worker): loads the Polish
 * dictionary once, then expands one list of terms at a time, so neither the load (seconds) nor
 * an expansion holds up the server's event loop. It speaks serveBudgetedWorker's protocol
 * ({ ready } once, then one { answer } per request) by hand, because it is ready only after the
 * asynchronous load, and the time budget should count a request's work, not the load.
 */

export type InflectionRequest = { terms: string[] };
export type InflectionAnswer = { type: 'terms'; terms: ExpandedTerm[] } | { type: 'error'; message: string };

const port = parentPort;
if (!port) throw new Error('this script runs as a worker thread (see lib/budgeted-worker.ts)');

void loadPolishDictionary().then(
  (dictionary) => {
    port.on('message', ({ terms }: InflectionRequest) => {
      let answer: InflectionAnswer;
      try {
        answer = { type: 'terms', terms: terms.map((term) => dictionary.expandTerm(term)) };
      } catch (err) {
        answer = { type: 'error', message: err instanceof Error ? err.message : String(err) };
      }
      port.postMessage({ answer });
    });
    port.postMessage({ ready: true });
  },
  (err: unknown) => {
    // Without its dictionary the thread is no use: ending it fails the request waiting for it.
    throw err instanceof Error ? err : new Error(String(err));
  },
);
