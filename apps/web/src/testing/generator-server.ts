/// <reference types="node" />
// A local HTTP server that speaks GEM's generators contract (packages/contracts/src/generators.ts),
// so the web app's real client, stream reader and components are what tests exercise: the
// api client's fetch goes to this server instead of the page's origin.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
  AiStatusResponse,
  GenerationEvent,
  GenerationRecord,
  GeneratorName,
} from '@gem/contracts/generators';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

/** What a POST to a generator answers with. */
export type GenerationReply =
  /**
   * An NDJSON stream: each event written after `delayMs`; `{ raw }` is written as is and
   * `{ until }` holds the stream until the promise settles (to look at the page mid-stream).
   */
  | { kind: 'stream'; events: readonly StreamItem[]; delayMs?: number }
  /** An error before streaming, in the contracts' error shape. */
  | { kind: 'error'; status: number; code: string; message?: string; headers?: Record<string, string> }
  /** Streams some events, then drops the connection. */
  | { kind: 'drop'; events: readonly GenerationEvent[] }
  /** Accepts and never answers (until the client gives up). */
  | { kind: 'hang' };

export type StreamItem = GenerationEvent | { raw: string } | { until: Promise<unknown> };

export type RecordedCall = { name: string; body: unknown; authorization: string | undefined };

type State = {
  aiStatus: AiStatusResponse;
  history: Partial<Record<GeneratorName, GenerationRecord[]>>;
  replies: GenerationReply[];
  calls: RecordedCall[];
  /** Resolves when a hanging or streaming request's connection closes. */
  closed: { name: string; at: number }[];
};

/** A promise the test settles when it wants a held stream to go on. */
export function gate() {
  let open = () => {};
  const until = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { until, open };
}

/** Builds a finished output event. */
export function final(
  text: string,
  extra: Partial<Extract<GenerationEvent, { type: 'final' }>['output']> = {},
) {
  return {
    type: 'final',
    generationId: 'gen-1',
    output: { text, shortened: false, truncated: false, ...extra },
  } satisfies GenerationEvent;
}

export function deltas(text: string): GenerationEvent[] {
  return (text.match(/\S+\s*|\s+/g) ?? []).map((t) => ({ type: 'delta', text: t }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the server for a test file and points fetch at it. `state` is reset after each test;
 * tests queue replies with `reply(...)` and read `calls`.
 */
export function serveGenerators() {
  let server: Server;
  let origin = '';
  const state: State = {
    aiStatus: { configured: true, provider: 'openai-compatible', model: 'gem-test-model' },
    history: {},
    replies: [],
    calls: [],
    closed: [],
  };
  const realFetch = globalThis.fetch;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const url = req.url ?? '/';
    if (req.method === 'GET' && url === '/api/ai/status') return json(res, 200, state.aiStatus);
    const history = url.match(/^\/api\/generators\/([a-z-]+)\/history$/);
    if (req.method === 'GET' && history) {
      return json(res, 200, { items: state.history[history[1] as GeneratorName] ?? [] });
    }
    const generate = url.match(/^\/api\/generators\/([a-z-]+)$/);
    if (req.method === 'POST' && generate) {
      const name = generate[1] ?? '';
      state.calls.push({ name, body: JSON.parse(raw), authorization: req.headers.authorization });
      res.on('close', () => state.closed.push({ name, at: Date.now() }));
      const reply = state.replies.shift() ?? { kind: 'stream', events: [final('Odpowiedź testowa.')] };
      switch (reply.kind) {
        case 'error':
          return json(
            res,
            reply.status,
            { error: { code: reply.code, message: reply.message ?? 'Refused.' } },
            reply.headers,
          );
        case 'hang':
          res.writeHead(200, { 'content-type': 'application/x-ndjson' });
          res.flushHeaders();
          return;
        case 'drop':
        case 'stream': {
          res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
          res.flushHeaders();
          for (const event of reply.events) {
            if ('until' in event) {
              await event.until;
              continue;
            }
            if (reply.kind === 'stream' && reply.delayMs) await sleep(reply.delayMs);
            if (res.destroyed) return;
            res.write(`${'raw' in event ? event.raw : JSON.stringify(event)}\n`);
          }
          if (reply.kind === 'drop') return res.destroy();
          return res.end();
        }
      }
    }
    json(res, 404, { error: { code: 'not_found', message: `No route ${req.method} ${url}` } });
  }

  beforeAll(async () => {
    server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The app's client calls same-origin paths (/api/...); send them here.
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      realFetch(new URL(String(input), origin), init),
    );
  });

  afterEach(() => {
    state.aiStatus = { configured: true, provider: 'openai-compatible', model: 'gem-test-model' };
    state.history = {};
    state.replies = [];
    state.calls = [];
    state.closed = [];
  });

  afterAll(async () => {
    vi.unstubAllGlobals();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  return {
    state,
    origin: () => origin,
    reply: (...replies: GenerationReply[]) => state.replies.push(...replies),
  };
}

function json(res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(data));
}
