/// <reference types="node" />
// The one way web tests fake the API: a local HTTP server, so the app's real client, stream
// reader and components are what tests exercise. It speaks the AI status and the writing tools'
// contract (packages/contracts/src/writing-tools.ts) out of the box, at the contracts' paths; a test adds any other route it needs
// with `on(...)`, answering as the real server would. The app calls same-origin paths
// (/api/...), which jsdom has no server for: those are sent to this one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { aiStatusPath, type AiStatusResponse } from '@gem/contracts/ai-status';
import {
  writingToolNames,
  writingToolPaths,
  type GenerationEvent,
  type GenerationRecord,
  type WritingToolName,
} from '@gem/contracts/writing-tools';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

/** What a POST to a generator answers with. */
export type GenerationReply =
  /**
   * An NDJSON stream: `{ raw }` is written as is and `{ until }` holds the stream until the
   * promise settles (to look at the page mid-stream).
   */
  | { kind: 'stream'; events: readonly StreamItem[] }
  /** An error before streaming, in the contracts' error shape. */
  | { kind: 'error'; status: number; code: string; message?: string; headers?: Record<string, string> }
  /** Streams some events, then drops the connection. */
  | { kind: 'drop'; events: readonly GenerationEvent[] }
  /** Accepts and never answers (until the client gives up). */
  | { kind: 'hang' };

export type StreamItem = GenerationEvent | { raw: string } | { until: Promise<unknown> };

export type RecordedCall = { name: string; body: unknown; authorization: string | undefined };

/** Answers one request; `body` is the request body as text. */
export type RouteHandler = (req: IncomingMessage, body: string, res: ServerResponse) => unknown;

type State = {
  aiStatus: AiStatusResponse;
  history: Partial<Record<WritingToolName, GenerationRecord[]>>;
  replies: GenerationReply[];
  /** The generate calls, in order. */
  calls: RecordedCall[];
  /** The writing tools whose request connection closed (the client aborted, or the answer ended). */
  closed: { name: string }[];
  /** Every request the server received, in order (absolute URLs). */
  requests: { method: string; url: URL }[];
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

/** Writes a JSON answer. */
export function json(
  res: ServerResponse,
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(data));
}

/**
 * Writes an NDJSON answer line by line, as the real server streams it: `{ raw }` is written as
 * is, `{ until }` holds the stream until the promise settles. Stops when the client has left.
 */
export async function writeNdjson(
  res: ServerResponse,
  items: readonly (object | { raw: string } | { until: Promise<unknown> })[],
) {
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
  res.flushHeaders();
  for (const item of items) {
    if ('until' in item) {
      await item.until;
      continue;
    }
    if (res.destroyed) return;
    res.write(`${'raw' in item ? item.raw : JSON.stringify(item)}\n`);
  }
  res.end();
}

const configured: AiStatusResponse = {
  configured: true,
  provider: 'openai-compatible',
  model: 'gem-test-model',
};

/**
 * Starts the server for a test file. `state` and the routes added with `on` are reset after
 * each test; tests queue generator replies with `reply(...)` and read `calls` and `requests`.
 */
export function serveApi() {
  let server: Server;
  let origin = '';
  const routes = new Map<string, RouteHandler>();
  const state: State = {
    aiStatus: configured,
    history: {},
    replies: [],
    calls: [],
    closed: [],
    requests: [],
  };
  const realFetch = globalThis.fetch;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', origin);
    state.requests.push({ method, url });

    const route = routeFor(`${method} ${url.pathname}`);
    if (route) return route(req, raw, res);
    if (method === 'GET' && url.pathname === aiStatusPath) return json(res, 200, state.aiStatus);
    const history = writingToolNames.find((name) => writingToolPaths.history(name) === url.pathname);
    if (method === 'GET' && history) return json(res, 200, { items: state.history[history] ?? [] });
    const generate = writingToolNames.find((name) => writingToolPaths.generate(name) === url.pathname);
    if (method === 'POST' && generate) return generation(generate, req, raw, res);
    json(res, 404, { error: { code: 'not_found', message: `No route ${method} ${url.pathname}` } });
  }

  function routeFor(key: string): RouteHandler | undefined {
    const exact = routes.get(key);
    if (exact) return exact;
    for (const [pattern, handler] of routes) {
      if (pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1))) return handler;
    }
    return undefined;
  }

  async function generation(name: string, req: IncomingMessage, raw: string, res: ServerResponse) {
    state.calls.push({ name, body: JSON.parse(raw), authorization: req.headers.authorization });
    res.on('close', () => state.closed.push({ name }));
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
          if (res.destroyed) return;
          res.write(`${'raw' in event ? event.raw : JSON.stringify(event)}\n`);
        }
        if (reply.kind === 'drop') return res.destroy();
        return res.end();
      }
    }
  }

  beforeAll(async () => {
    server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Same-origin paths (/api/...) come here; absolute URLs go where they point.
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      realFetch(new URL(String(input), origin), init),
    );
  });

  afterEach(() => {
    routes.clear();
    state.aiStatus = configured;
    state.history = {};
    state.replies = [];
    state.calls = [];
    state.closed = [];
    state.requests = [];
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
    /**
     * Answers `method path` (the path without its query; a trailing `*` matches any rest) with
     * `handler`, for this test.
     */
    on: (method: string, path: string, handler: RouteHandler) => routes.set(`${method} ${path}`, handler),
  };
}
