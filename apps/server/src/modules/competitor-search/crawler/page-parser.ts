import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { PageFacts, SitemapFacts } from './page-facts';
import type { PageParseAnswer, PageParseRequest } from './page-parser.worker';

/**
 * Parses fetched pages and sitemaps off the event loop, like the feed parser does feeds
 * (integrations/feeds/feed-parser.ts): one worker thread, one document at a time, a time budget
 * per document (a worker past it is stopped and the document fails) and a heap limit. The
 * worker starts with the first document and stops after a few idle seconds.
 */

export type PageParser = {
  page(body: Uint8Array, contentType: string | undefined, url: string): Promise<PageFacts>;
  sitemap(body: Uint8Array, contentType: string | undefined): Promise<SitemapFacts>;
  close(): Promise<void>;
};

/** Why a document could not be parsed; the message is for people. */
export class PageParseError extends Error {
  override name = 'PageParseError';
}

export const PAGE_PARSE_BUDGET_MS = 10_000;
const IDLE_MS = 5_000;
const MAX_MEMORY_MB = 512;

/** From source (tsx, vitest), the .ts worker through tsx's require API; in the bundle, the .js beside it. */
function workerScript(): { script: string | URL; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { script: new URL('./page-parser.worker.js', here), eval: false };
  const tsx = createRequire(here).resolve('tsx/cjs/api');
  const file = new URL('./page-parser.worker.ts', here).href;
  const load = `require(${JSON.stringify(tsx)}).require(${JSON.stringify(file)}, ${JSON.stringify(here)});`;
  return { script: load, eval: true };
}

type Job = {
  request: PageParseRequest;
  resolve: (answer: PageParseAnswer) => void;
  reject: (err: Error) => void;
};
type Thread = { worker: Worker; ready: boolean };

export function createPageParser(
  options: { budgetMs?: number; idleMs?: number; maxMemoryMb?: number } = {},
): PageParser {
  const budgetMs = options.budgetMs ?? PAGE_PARSE_BUDGET_MS;
  const idleMs = options.idleMs ?? IDLE_MS;
  const queue: Job[] = [];
  let thread: Thread | undefined;
  let running: { job: Job; timer: NodeJS.Timeout } | undefined;
  let idle: NodeJS.Timeout | undefined;
  let closed = false;

  function start(): Thread {
    const { script, eval: isCode } = workerScript();
    const worker = new Worker(script, {
      eval: isCode,
      execArgv: [],
      name: 'gem-page-parser',
      resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb ?? MAX_MEMORY_MB },
    });
    const started: Thread = { worker, ready: false };
    worker.on('message', (answer: PageParseAnswer) => {
      if (thread !== started) return;
      if (answer.type === 'ready') {
        started.ready = true;
        return next();
      }
      const done = running;
      running = undefined;
      if (!done) return;
      clearTimeout(done.timer);
      done.job.resolve(answer);
      next();
    });
    worker.on('error', (err: Error & { code?: string }) =>
      lost(
        started,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new PageParseError('the page needs too much memory to parse')
          : new Error(`the page parser stopped: ${err.message}`, { cause: err }),
      ),
    );
    worker.on('exit', (code) => lost(started, new Error(`the page parser stopped (exit code ${code})`)));
    return started;
  }

  function lost(gone: Thread, error: Error) {
    if (thread !== gone) return;
    thread = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.job.reject(error);
      running = undefined;
    } else if (!gone.ready) {
      for (const job of queue.splice(0)) job.reject(error);
    }
    next();
  }

  function next() {
    if (running || closed) return;
    clearTimeout(idle);
    const job = queue[0];
    if (!job) {
      const waiting = thread;
      waiting?.worker.unref();
      if (waiting) {
        idle = setTimeout(() => {
          if (thread === waiting) thread = undefined;
          void waiting.worker.terminate();
        }, idleMs).unref();
      }
      return;
    }
    thread ??= start();
    thread.worker.ref();
    if (!thread.ready) return;
    queue.shift();
    const current = thread;
    const timer = setTimeout(() => {
      if (running?.job !== job) return;
      running = undefined;
      thread = undefined;
      void current.worker.terminate();
      job.reject(new PageParseError(`the page took too long to parse (more than ${budgetMs / 1000} s)`));
      next();
    }, budgetMs);
    running = { job, timer };
    current.worker.postMessage(job.request);
  }

  function submit(request: PageParseRequest): Promise<PageParseAnswer> {
    if (closed) return Promise.reject(new Error('the page parser is closed'));
    return new Promise((resolve, reject) => {
      queue.push({ request, resolve, reject });
      next();
    });
  }

  const failed = (answer: PageParseAnswer): never => {
    throw new PageParseError(answer.type === 'error' ? answer.message : 'the page parser answered oddly');
  };

  return {
    async page(body, contentType, url) {
      const answer = await submit({ kind: 'page', body, contentType, url });
      return answer.type === 'page' ? answer.facts : failed(answer);
    },
    async sitemap(body, contentType) {
      const answer = await submit({ kind: 'sitemap', body, contentType });
      return answer.type === 'sitemap' ? answer.facts : failed(answer);
    },
    async close() {
      closed = true;
      clearTimeout(idle);
      const error = new Error('the page parser is closed');
      for (const job of queue.splice(0)) job.reject(error);
      if (running) {
        clearTimeout(running.timer);
        running.job.reject(error);
        running = undefined;
      }
      const current = thread;
      thread = undefined;
      if (current) await current.worker.terminate();
    },
  };
}
