import { createRequire } from 'node:module';
import { parentPort, Worker } from 'node:worker_threads';

/**
 * Runs untrusted parsing off the event loop: one worker thread answers one request at a time,
 * within a time budget per request (a worker past it is terminated and the request fails) and a
 * heap limit. The worker starts with the first request and stops after `idleMs` with nothing to
 * do; the next request starts a new one. A worker that dies fails the request it was on, and the
 * next request gets a new worker.
 *
 * Both halves live here: createBudgetedWorker on the server's thread, serveBudgetedWorker in
 * the worker script. The script is its own entry point in the bundle (build.mjs writes
 * dist/<name>.worker.js beside dist/server.js). The worker is named after its script:
 * feed-parser.worker.ts runs as the thread gem-feed-parser, and says "the feed parser stopped".
 */

export type BudgetedWorker<Req, Ans> = {
  /** Sends a request to the worker and resolves with its answer. */
  run(request: Req, signal?: AbortSignal): Promise<Ans>;
  /** Stops the worker; the request it is on and those still waiting are refused. */
  close(): Promise<void>;
};

/** What happened to the worker, for logs and tests. */
export type BudgetedWorkerEvent = 'started' | 'idle-stopped' | 'over-budget';

export type BudgetedWorkerLimits = {
  /** Time one request may take. */
  budgetMs?: number;
  /** The worker stops after this long with nothing to do. */
  idleMs?: number;
  /** The worker's heap limit (old generation). */
  maxMemoryMb?: number;
};

/**
 * The limits a parser gets unless told otherwise. A round of work (a feed refresh, a crawl)
 * parses its documents one after another, so a few idle seconds keep one worker for the round;
 * then it goes, with its heap (tens of MB, bench/memory.md), until the next round.
 */
export const DEFAULT_LIMITS = { budgetMs: 10_000, idleMs: 5_000, maxMemoryMb: 512 } as const;

export type BudgetedWorkerOptions = {
  /**
   * The worker's script as the caller's `new URL('./x.worker.ts', import.meta.url)`. From source
   * (tsx, vitest) that .ts file is loaded through tsx's require API (Node 20 reads no TypeScript,
   * and does not apply `--import tsx` to a worker's own modules). In the bundle the caller's
   * import.meta.url is dist/server.js (or cli.js), and the script is the .js entry point
   * build.mjs writes beside it, dist/x.worker.js.
   */
  script: URL;
  limits?: BudgetedWorkerLimits;
  /**
   * How a request over its budget or the heap limit fails: `subject` names what was being
   * parsed ('the page': "the page took too long to parse (more than 10 s)", "the page needs too
   * much memory to parse"), `error` makes the error of the caller's own kind from the message.
   */
  failure: { subject: string; error: (message: string) => Error };
  onEvent?: (event: BudgetedWorkerEvent) => void;
};

/** What serveBudgetedWorker posts: once `ready`, then one `answer` for each request. */
type Message<Ans> = { ready: true } | { answer: Ans };

/** Answers requests in a worker thread started by createBudgetedWorker. */
export function serveBudgetedWorker<Req, Ans>(answer: (request: Req) => Ans): void {
  const port = parentPort;
  if (!port) throw new Error('this script runs as a worker thread (see lib/budgeted-worker.ts)');
  port.on('message', (request: Req) => port.postMessage({ answer: answer(request) } satisfies Message<Ans>));
  port.postMessage({ ready: true } satisfies Message<Ans>);
}

/** Whether this code runs from source (a .ts module) rather than from the bundle. */
const fromSource = import.meta.url.endsWith('.ts');

function workerScript(source: URL): { script: string | URL; eval: boolean } {
  if (!fromSource) return { script: new URL(source.href.replace(/\.ts$/, '.js')), eval: false };
  const here = import.meta.url;
  const tsx = createRequire(here).resolve('tsx/cjs/api');
  const load = `require(${JSON.stringify(tsx)}).require(${JSON.stringify(source.href)}, ${JSON.stringify(here)});`;
  return { script: load, eval: true };
}

type Job<Req, Ans> = {
  request: Req;
  resolve: (answer: Ans) => void;
  reject: (err: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

type Thread = { worker: Worker; ready: boolean };

export function createBudgetedWorker<Req, Ans>(options: BudgetedWorkerOptions): BudgetedWorker<Req, Ans> {
  const { failure } = options;
  const file = options.script.pathname.split('/').pop() ?? 'worker';
  const name = file.replace(/(\.worker)?\.ts$/, '').replaceAll(/[-.]/g, ' ');
  const budgetMs = options.limits?.budgetMs ?? DEFAULT_LIMITS.budgetMs;
  const idleMs = options.limits?.idleMs ?? DEFAULT_LIMITS.idleMs;
  const maxMemoryMb = options.limits?.maxMemoryMb ?? DEFAULT_LIMITS.maxMemoryMb;
  const queue: Job<Req, Ans>[] = [];
  let thread: Thread | undefined;
  let running: { job: Job<Req, Ans>; timer: NodeJS.Timeout } | undefined;
  let idle: NodeJS.Timeout | undefined;
  let closed = false;

  function settle(job: Job<Req, Ans>, outcome: { answer: Ans } | { error: Error }) {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if ('answer' in outcome) job.resolve(outcome.answer);
    else job.reject(outcome.error);
  }

  function start(): Thread {
    const { script, eval: isCode } = workerScript(options.script);
    const worker = new Worker(script, {
      eval: isCode,
      execArgv: [],
      name: `gem-${name.replaceAll(' ', '-')}`,
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
    });
    const started: Thread = { worker, ready: false };
    worker.on('message', (message: Message<Ans>) => {
      if (thread !== started) return;
      if ('ready' in message) {
        started.ready = true;
        next();
        return;
      }
      const done = running;
      if (!done) return;
      running = undefined;
      clearTimeout(done.timer);
      settle(done.job, { answer: message.answer });
      next();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      lost(
        started,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? failure.error(`${failure.subject} needs too much memory to parse`)
          : new Error(`the ${name} stopped: ${err.message}`, { cause: err }),
      );
    });
    worker.on('exit', (code) => lost(started, new Error(`the ${name} stopped (exit code ${code})`)));
    options.onEvent?.('started');
    return started;
  }

  /** The worker died (or was stopped): its request fails, the next one gets a new worker. */
  function lost(gone: Thread, error: Error) {
    if (thread !== gone) return;
    thread = undefined;
    if (running) {
      clearTimeout(running.timer);
      settle(running.job, { error });
      running = undefined;
    } else if (!gone.ready) {
      // It could not even start: starting another for the same requests would fail the same way.
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
      if (waiting) {
        idle = setTimeout(() => {
          stop(waiting);
          options.onEvent?.('idle-stopped');
        }, idleMs).unref();
      }
      return;
    }
    try {
      thread ??= start();
    } catch (err) {
      const error = new Error(`the ${name} could not start: ${(err as Error).message}`, { cause: err });
      for (const waiting of queue.splice(0)) settle(waiting, { error });
      return;
    }
    // A worker that is running or starting keeps the process up until its request is done.
    thread.worker.ref();
    if (!thread.ready) return;
    queue.shift();
    const current = thread;
    const timer = setTimeout(() => {
      if (running?.job !== job) return;
      running = undefined;
      stop(current);
      options.onEvent?.('over-budget');
      settle(job, {
        error: failure.error(`${failure.subject} took too long to parse (more than ${budgetMs / 1000} s)`),
      });
      next();
    }, budgetMs);
    running = { job, timer };
    current.worker.postMessage(job.request);
  }

  function abort(job: Job<Req, Ans>) {
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
    run(request, signal) {
      if (closed) return Promise.reject(new Error(`the ${name} is closed`));
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      return new Promise<Ans>((resolve, reject) => {
        const job: Job<Req, Ans> = { request, resolve, reject, signal };
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
      const error = new Error(`the ${name} is closed`);
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
