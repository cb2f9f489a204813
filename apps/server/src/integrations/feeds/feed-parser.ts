import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ParseAnswer, ParseRequest } from './feed-parser.worker';
import { FeedParseError, type NormalisedItem, type ParseOptions } from './parse-feed';

/**
 * Parses feed documents off the event loop. A document is third-party input up to 5 MiB, and
 * turning its HTML into text can take seconds (html-to-text, feedsmith): on the server's own
 * thread that would hold up every request. One worker thread parses one document at a time;
 * one that takes longer than the time budget (or more memory than the limit) is stopped, and
 * its feed's read fails with a message that says so. The worker starts with the first
 * document and stops after a while with nothing to parse.
 */

/** A document as it came: its bytes, and the Content-Type that names its charset. */
export type RawDocument = { body: Uint8Array; contentType?: string };

export type FeedParser = {
  /** Decodes and parses a document (parse-feed.ts decodeBody, parseFeedDocument). */
  parse(doc: RawDocument, options: ParseOptions, signal?: AbortSignal): Promise<NormalisedItem[]>;
  /** Stops the worker; documents still waiting are refused. */
  close(): Promise<void>;
};

export type FeedParserOptions = {
  /** Time one document may take to parse. */
  budgetMs?: number;
  /** The worker stops after this long with nothing to parse. */
  idleMs?: number;
  /** The worker's heap limit. */
  maxMemoryMb?: number;
};

export const PARSE_BUDGET_MS = 10_000;
// A refresh round parses its feeds one after another, so a few seconds keep one worker for the
// round; then it goes, with its heap (tens of MB, bench/memory.md), until the next round.
const IDLE_MS = 5_000;
const MAX_MEMORY_MB = 512;

export const TOO_SLOW = 'the document took too long to parse';
export const TOO_BIG = 'the document needs too much memory to parse';

/**
 * The worker's script. In the bundle (dist/server.js, dist/cli.js) it is the entry point
 * build.mjs writes beside them, dist/feed-parser.worker.js. From source (tsx, vitest) it is
 * the .ts file beside this one, loaded through tsx's require API: Node 20 reads no TypeScript,
 * and does not apply `--import tsx` to a worker's own modules.
 */
function workerScript(): { script: string | URL; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { script: new URL('./feed-parser.worker.js', here), eval: false };
  const tsx = createRequire(here).resolve('tsx/cjs/api');
  const file = new URL('./feed-parser.worker.ts', here).href;
  const load = `require(${JSON.stringify(tsx)}).require(${JSON.stringify(file)}, ${JSON.stringify(here)});`;
  return { script: load, eval: true };
}

type Job = {
  request: ParseRequest;
  resolve: (items: NormalisedItem[]) => void;
  reject: (err: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

type Thread = { worker: Worker; ready: boolean };

export function createFeedParser(options: FeedParserOptions = {}): FeedParser {
  const budgetMs = options.budgetMs ?? PARSE_BUDGET_MS;
  const idleMs = options.idleMs ?? IDLE_MS;
  const maxMemoryMb = options.maxMemoryMb ?? MAX_MEMORY_MB;
  const queue: Job[] = [];
  let thread: Thread | undefined;
  let running: { job: Job; timer: NodeJS.Timeout } | undefined;
  let idle: NodeJS.Timeout | undefined;
  let closed = false;

  function settle(job: Job, outcome: { items: NormalisedItem[] } | { error: Error }) {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if ('items' in outcome) job.resolve(outcome.items);
    else job.reject(outcome.error);
  }

  function start(): Thread {
    const { script, eval: isCode } = workerScript();
    const worker = new Worker(script, {
      eval: isCode,
      execArgv: [],
      name: 'gem-feed-parser',
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
    });
    const started: Thread = { worker, ready: false };
    worker.on('message', (answer: ParseAnswer) => {
      if (thread !== started) return;
      if (answer.type === 'ready') {
        started.ready = true;
        next();
        return;
      }
      const done = running;
      if (!done) return;
      running = undefined;
      clearTimeout(done.timer);
      if (answer.type === 'items') {
        settle(done.job, { items: answer.items });
      } else {
        const error = answer.unreadable ? new FeedParseError(answer.message) : new Error(answer.message);
        if (answer.stack) error.stack = answer.stack;
        settle(done.job, { error });
      }
      next();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      lost(
        started,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new FeedParseError(TOO_BIG)
          : new Error(`the feed parser stopped: ${err.message}`, { cause: err }),
      );
    });
    worker.on('exit', (code) => lost(started, new Error(`the feed parser stopped (exit code ${code})`)));
    return started;
  }

  /** The worker died (or was stopped): its document fails, the next one gets a new worker. */
  function lost(gone: Thread, error: Error) {
    if (thread !== gone) return;
    thread = undefined;
    if (running) {
      clearTimeout(running.timer);
      settle(running.job, { error });
      running = undefined;
    } else if (!gone.ready) {
      // It could not even start: starting another for the same documents would fail the same way.
      for (const job of queue.splice(0)) settle(job, { error });
    }
    next();
  }

  function stop(current: Thread) {
    if (thread === current) thread = undefined;
    void current.worker.terminate();
  }

  function next() {
    if (running || closed) return;
    clearTimeout(idle);
    const job = queue[0];
    if (!job) {
      thread?.worker.unref();
      const waiting = thread;
      if (waiting) idle = setTimeout(() => stop(waiting), idleMs).unref();
      return;
    }
    try {
      thread ??= start();
    } catch (err) {
      const error = new Error(`the feed parser could not start: ${(err as Error).message}`, { cause: err });
      for (const waiting of queue.splice(0)) settle(waiting, { error });
      return;
    }
    // A worker that is running or starting keeps the process up until its document is done.
    thread.worker.ref();
    if (!thread.ready) return;
    queue.shift();
    const current = thread;
    const timer = setTimeout(() => {
      if (running?.job !== job) return;
      running = undefined;
      stop(current);
      settle(job, { error: new FeedParseError(`${TOO_SLOW} (more than ${budgetMs / 1000} s)`) });
      next();
    }, budgetMs);
    running = { job, timer };
    current.worker.postMessage(job.request);
  }

  function abort(job: Job) {
    const error = job.signal?.reason instanceof Error ? job.signal.reason : new Error('parsing cancelled');
    const waiting = queue.indexOf(job);
    if (waiting !== -1) {
      queue.splice(waiting, 1);
      settle(job, { error });
    } else if (running?.job === job && thread) {
      clearTimeout(running.timer);
      running = undefined;
      stop(thread);
      settle(job, { error });
    }
    next();
  }

  return {
    parse({ body, contentType }, parseOptions, signal) {
      if (closed) return Promise.reject(new Error('the feed parser is closed'));
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      return new Promise<NormalisedItem[]>((resolve, reject) => {
        const request: ParseRequest = { body, contentType, options: parseOptions };
        const job: Job = { request, resolve, reject, signal };
        if (signal) {
          job.onAbort = () => abort(job);
          signal.addEventListener('abort', job.onAbort, { once: true });
        }
        queue.push(job);
        next();
      });
    },
    async close() {
      closed = true;
      clearTimeout(idle);
      const error = new Error('the feed parser is closed');
      for (const job of queue.splice(0)) settle(job, { error });
      if (running) {
        clearTimeout(running.timer);
        settle(running.job, { error });
        running = undefined;
      }
      const current = thread;
      thread = undefined;
      if (current) await current.worker.terminate();
    },
  };
}
