import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fragments, isReply, tokenize, type RecordedRequest, type ScriptedReply } from './scripted-replies';
import { sampleFromSchema, structuredRequestOf } from './structured-requests';

/**
 * A local server that speaks the OpenAI chat-completions protocol (`POST …/chat/completions`,
 * JSON and SSE streams), so GEM's real LLM adapter is what tests exercise. Replies are
 * scripted; faults (429 or 500 with Retry-After, a hang, a stall or a disconnect mid-stream)
 * can be injected; every request is recorded, with when its first token was written.
 *
 * Structured output too: a request with `response_format: { type: 'json_schema' }` is answered
 * with an object's JSON as the message content, and a request that offers `tools` (with a
 * `tool_choice`) with a call of the chosen tool, the JSON as its `function.arguments`: whole, or
 * streamed in fragments (content deltas, or `tool_calls` deltas). Object replies (`object`,
 * `raw-json`) and the stream faults (`stall`, `disconnect`) follow the request's form; a `text`
 * reply is always plain content (a model that ignored the tool). A reply may end with another
 * `finish_reason` (`length`: cut at max_tokens), and a tool call may come after some text
 * (`preamble`). With no reply queued, a structured request gets an object made up from its schema.
 *
 * Any path ending in `/chat/completions` is served, so Azure's deployment URLs
 * (`/openai/deployments/<name>/chat/completions?api-version=…`) reach it too.
 *
 * Another process (an end-to-end test driving a server started by the CLI) can script it over
 * HTTP: `POST /__control/replies` with a JSON array of replies, `GET /__control/requests`,
 * `POST /__control/reset`.
 */

export type OpenAiServerOptions = {
  port?: number;
  host?: string;
  /**
   * Used when no scripted reply is queued. A function sees the request (e.g. to echo it).
   * Without one: a short Polish text, or for a structured request an object made up from its
   * schema (`sampleFromSchema`).
   */
  defaultReply?: ScriptedReply | ((request: RecordedRequest) => ScriptedReply);
  /** Pause between streamed tokens, unless a reply sets its own. */
  tokenDelayMs?: number;
  /** The model id in `/v1/models` and in answers when the request names none. */
  model?: string;
  /**
   * Keep every request for `requests` and `/__control/requests` (tests). GEM's built-in demo
   * stand-in, which runs as long as the server, keeps none.
   */
  keepRequests?: boolean;
};

export type OpenAiServer = {
  /** Base URL including `/v1`, as the OpenAI SDKs expect it. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Queues replies for the next requests, in order. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Resolves once `count` chat requests have arrived in total. */
  whenRequested(count: number, timeoutMs?: number): Promise<RecordedRequest>;
  /** Resolves once this request's connection has closed (finished or dropped). */
  whenClosed(request: RecordedRequest, timeoutMs?: number): Promise<void>;
  /** Forgets queued replies and recorded requests. */
  reset(): void;
  close(): Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startOpenAiServer(options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const closeWaiters = new Map<RecordedRequest, (() => void)[]>();
  const countWaiters: { count: number; resolve: (r: RecordedRequest) => void }[] = [];
  let nextId = 1;

  const pickReply = (request: RecordedRequest): ScriptedReply => {
    const queued = queue.shift();
    if (queued) return queued;
    const fallback =
      options.defaultReply ??
      (request.structured
        ? { kind: 'object', value: sampleFromSchema(request.structured.schema) }
        : { kind: 'text', text: 'Odpowiedź testowa.' });
    return typeof fallback === 'function' ? fallback(request) : fallback;
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    let raw = '';
    for await (const chunk of req) raw += String(chunk);

    if (path.startsWith('/__control/')) return control(req.method ?? 'GET', path, raw, res);
    if (req.method === 'GET' && path.endsWith('/models')) {
      return json(res, 200, {
        object: 'list',
        data: [{ id: options.model ?? 'gem-test-model', object: 'model' }],
      });
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      return json(res, 404, {
        error: { message: `No route ${req.method} ${path}`, type: 'invalid_request_error' },
      });
    }
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(raw) as RecordedRequest['body'];
    } catch {
      return json(res, 400, { error: { message: 'Body is not JSON', type: 'invalid_request_error' } });
    }
    const structured = structuredRequestOf(body);
    const recorded: RecordedRequest = {
      path,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      ...(structured ? { structured } : {}),
      receivedAt: Date.now(),
      finished: false,
      closedByClient: false,
      droppedByServer: false,
    };
    if (options.keepRequests !== false) requests.push(recorded);
    res.on('finish', () => {
      recorded.finished = true;
    });
    res.on('close', () => {
      if (!recorded.finished && !recorded.droppedByServer) recorded.closedByClient = true;
      for (const resolve of closeWaiters.get(recorded) ?? []) resolve();
      closeWaiters.delete(recorded);
    });
    for (const waiter of countWaiters.filter((w) => requests.length >= w.count)) {
      countWaiters.splice(countWaiters.indexOf(waiter), 1);
      waiter.resolve(recorded);
    }

    const reply = pickReply(recorded);
    const id = `chatcmpl-test-${nextId++}`;
    const model = body.model ?? options.model ?? 'gem-test-model';
    const created = Math.floor(Date.now() / 1000);
    const promptTokens = (body.messages ?? []).reduce((n, m) => n + tokenize(String(m.content)).length, 0);

    switch (reply.kind) {
      case 'status': {
        const headers: Record<string, string> = {};
        if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
        if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
        const type =
          reply.status === 429
            ? 'rate_limit_error'
            : reply.status >= 500
              ? 'server_error'
              : 'invalid_request_error';
        return json(
          res,
          reply.status,
          { error: { message: reply.message ?? `Injected ${reply.status}`, type } },
          headers,
        );
      }
      case 'hang':
        return; // the socket stays open; the client's abort or close() ends it
      case 'text':
      case 'disconnect':
      case 'stall':
      case 'object':
      case 'raw-json': {
        // Objects and stream faults answer a tool request as the tool's call; text never does.
        const toolName = structured?.mode === 'tool' && reply.kind !== 'text' ? structured.name : undefined;
        const whole = reply.kind === 'object' ? JSON.stringify(reply.value) : reply.text;
        const tokens =
          reply.kind === 'object' || reply.kind === 'raw-json'
            ? fragments(whole, reply.chunkChars)
            : tokenize(whole);
        const cutAfter =
          reply.kind === 'disconnect' || reply.kind === 'stall' ? reply.afterTokens : undefined;
        const firstTokenDelayMs = 'firstTokenDelayMs' in reply ? reply.firstTokenDelayMs : undefined;
        const delay = reply.tokenDelayMs ?? options.tokenDelayMs ?? 0;
        const callId = `call_test_${id.slice('chatcmpl-test-'.length)}`;
        const finishReason =
          reply.kind === 'disconnect' || reply.kind === 'stall' ? undefined : reply.finishReason;
        const finish = finishReason ?? (toolName ? 'tool_calls' : 'stop');
        const preamble = toolName && 'preamble' in reply ? reply.preamble : undefined;
        const usage = {
          prompt_tokens: promptTokens,
          completion_tokens: tokens.length,
          total_tokens: promptTokens + tokens.length,
        };
        if (!body.stream) {
          if (reply.kind === 'disconnect') return drop(recorded, res);
          if (reply.kind === 'stall') return; // never answers
          if (firstTokenDelayMs) await sleep(firstTokenDelayMs);
          if (res.destroyed) return;
          recorded.firstTokenAt = Date.now();
          const message = toolName
            ? {
                role: 'assistant',
                content: preamble ?? null,
                tool_calls: [
                  { id: callId, type: 'function', function: { name: toolName, arguments: whole } },
                ],
              }
            : { role: 'assistant', content: whole };
          return json(res, 200, {
            id,
            object: 'chat.completion',
            created,
            model,
            choices: [{ index: 0, message, finish_reason: finish }],
            usage,
          });
        }
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
        const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        if (preamble !== undefined) {
          res.write(chunk({ role: 'assistant', content: '' }));
          for (const token of tokenize(preamble)) res.write(chunk({ content: token }));
        }
        res.write(
          chunk(
            toolName
              ? {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    { index: 0, id: callId, type: 'function', function: { name: toolName, arguments: '' } },
                  ],
                }
              : { role: 'assistant', content: '' },
          ),
        );
        if (firstTokenDelayMs) await sleep(firstTokenDelayMs);
        for (const [index, token] of tokens.entries()) {
          if (delay > 0) await sleep(delay);
          if (res.destroyed) return;
          if (cutAfter !== undefined && index >= cutAfter) {
            // A moment first, so the tokens already written reach the client before the drop.
            if (reply.kind === 'disconnect') await sleep(20).then(() => drop(recorded, res));
            return; // a stall keeps the connection open
          }
          recorded.firstTokenAt ??= Date.now();
          res.write(
            chunk(
              toolName ? { tool_calls: [{ index: 0, function: { arguments: token } }] } : { content: token },
            ),
          );
        }
        if (cutAfter !== undefined) {
          if (reply.kind === 'disconnect') await sleep(20).then(() => drop(recorded, res));
          return;
        }
        res.write(chunk({}, finish));
        const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
        if (wantsUsage) {
          res.write(
            `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
          );
        }
        res.end('data: [DONE]\n\n');
        return;
      }
    }
  }

  function control(method: string, path: string, raw: string, res: ServerResponse) {
    if (method === 'POST' && path === '/__control/replies') {
      let replies: unknown;
      try {
        replies = JSON.parse(raw);
      } catch {
        return json(res, 400, { error: 'body must be a JSON array of replies' });
      }
      const list: unknown[] = Array.isArray(replies) ? replies : [replies];
      const bad = list.filter((r) => !isReply(r));
      if (bad.length > 0) return json(res, 400, { error: `not a reply: ${JSON.stringify(bad[0])}` });
      queue.push(...(list as ScriptedReply[]));
      return json(res, 200, { queued: queue.length });
    }
    if (method === 'GET' && path === '/__control/requests') return json(res, 200, { requests });
    if (method === 'POST' && path === '/__control/reset') {
      reset();
      return json(res, 200, { ok: true });
    }
    return json(res, 404, { error: `No control route ${method} ${path}` });
  }

  function reset() {
    queue.length = 0;
    requests.length = 0;
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    whenRequested: (count, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        if (requests.length >= count) return resolve(requests[count - 1]!);
        const timer = setTimeout(
          () => reject(new Error(`only ${requests.length} of ${count} requests arrived`)),
          timeoutMs,
        );
        countWaiters.push({
          count,
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
          },
        });
      }),
    whenClosed: (request, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        if (request.finished || request.closedByClient) return resolve();
        const timer = setTimeout(() => reject(new Error('the request is still open')), timeoutMs);
        closeWaiters.set(request, [
          ...(closeWaiters.get(request) ?? []),
          () => {
            clearTimeout(timer);
            resolve();
          },
        ]);
      }),
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function drop(recorded: RecordedRequest, res: ServerResponse) {
  recorded.droppedByServer = true;
  res.destroy();
}

function json(res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(data));
}
