import { startOpenAiServer, type OpenAiServer } from '@gem/test-servers/openai-server';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { AiServiceConfig } from '../../config';
import { createAiSdkTextModel } from './ai-sdk-text-model';
import { LlmError, type TextModel, type TextModelRequest } from './text-model';

// The real adapter over HTTP against the OpenAI-compatible test server. No database: once is enough.
let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const ask: TextModelRequest = {
  system: 'Odpowiadaj po polsku.',
  messages: [{ role: 'user', content: 'Napisz zdanie.' }],
};

function model(overrides: { timeoutMs?: number; retryBaseDelayMs?: number } = {}, service?: AiServiceConfig) {
  return createAiSdkTextModel({
    ai: { timeoutMs: 3_000, maxRetries: 2, retryBaseDelayMs: 20, ...overrides },
    service: service ?? {
      provider: 'openai-compatible',
      model: 'gem-test-model',
      baseUrl: server.url,
      apiKey: 'k',
    },
  });
}

async function collect(m: TextModel, request: TextModelRequest = ask) {
  const chunks: string[] = [];
  const stream = m.stream(request);
  for await (const chunk of stream) chunks.push(chunk);
  return { chunks, result: await stream.result };
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

describe.runIf(inject('dbKind') === 'pglite')('the AI SDK adapter', () => {
  it('streams the answer token by token, with the usage and the model, over chat completions', async () => {
    server.enqueue({ kind: 'text', text: 'Ala ma kota, a kot ma Alę.' });
    const { chunks, result } = await collect(model());
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe('Ala ma kota, a kot ma Alę.');
    expect(result).toEqual({
      text: 'Ala ma kota, a kot ma Alę.',
      usage: { promptTokens: 5, completionTokens: 7 },
      model: 'gem-test-model',
    });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer k');
    expect(request?.body.stream).toBe(true);
    expect(request?.body.messages).toEqual([
      { role: 'system', content: 'Odpowiadaj po polsku.' },
      { role: 'user', content: 'Napisz zdanie.' },
    ]);
  });

  it('generates a whole answer in one piece', async () => {
    server.enqueue({ kind: 'text', text: 'Gotowe.' });
    const result = await model().generate(ask);
    expect(result.text).toBe('Gotowe.');
    expect(result.usage.completionTokens).toBe(1);
    expect(server.requests[0]?.body.stream).toBeFalsy();
  });

  it('retries a 429 after the Retry-After it was given, at most twice', async () => {
    server.enqueue(
      { kind: 'status', status: 429, retryAfterSeconds: 1 },
      { kind: 'status', status: 429, retryAfterMs: 150 },
      { kind: 'text', text: 'Po przerwie.' },
    );
    const { result } = await collect(model());
    expect(result.text).toBe('Po przerwie.');
    const [first, second, third] = server.requests.map((r) => r.receivedAt);
    expect(second! - first!).toBeGreaterThanOrEqual(950);
    expect(third! - second!).toBeGreaterThanOrEqual(140);
    expect(third! - second!).toBeLessThan(900);

    server.reset();
    server.enqueue(
      { kind: 'status', status: 429, retryAfterSeconds: 0 },
      { kind: 'status', status: 429, retryAfterSeconds: 0 },
      { kind: 'status', status: 429, retryAfterSeconds: 7 },
    );
    const err = await failure(collect(model({ timeoutMs: 20_000 })));
    expect(err.failure).toBe('rate_limited');
    expect(err.details.retryAfterSeconds).toBe(7);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a 500 with backoff, and gives up on the third', async () => {
    server.enqueue(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'text', text: 'Jest.' },
    );
    expect((await model().generate(ask)).text).toBe('Jest.');
    expect(server.requests).toHaveLength(3);

    server.reset();
    server.enqueue(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      { kind: 'status', status: 500 },
    );
    const err = await failure(collect(model()));
    expect(err).toMatchObject({ failure: 'unavailable', details: { status: 500, attempts: 3 } });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry other errors, nor a wait that would outlast the timeout', async () => {
    server.enqueue({ kind: 'status', status: 401, message: 'bad key' });
    expect((await failure(model().generate(ask))).details.status).toBe(401);
    expect(server.requests).toHaveLength(1);

    server.reset();
    server.enqueue({ kind: 'status', status: 429, retryAfterSeconds: 30 });
    const started = Date.now();
    const err = await failure(collect(model({ timeoutMs: 2_000 })));
    expect(err.failure).toBe('rate_limited');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a service that hangs, or stalls mid-stream, and closes the connection', async () => {
    server.enqueue({ kind: 'hang' });
    expect((await failure(collect(model({ timeoutMs: 300 })))).failure).toBe('timeout');
    await server.whenClosed(server.requests[0]!);
    expect(server.requests[0]?.closedByClient).toBe(true);

    server.enqueue({ kind: 'stall', text: 'Zaczynam i milknę.', afterTokens: 1 });
    const chunks: string[] = [];
    const err = await failure(
      (async () => {
        for await (const chunk of model({ timeoutMs: 300 }).stream(ask)) chunks.push(chunk);
      })(),
    );
    expect(err.failure).toBe('timeout');
    expect(chunks).toEqual(['Zaczynam ']);
  });

  it('fails, without retrying, when the service drops the connection mid-stream', async () => {
    server.enqueue({ kind: 'disconnect', text: 'Jeden dwa trzy cztery.', afterTokens: 2 });
    const chunks: string[] = [];
    const stream = model().stream(ask);
    const err = await failure(
      (async () => {
        for await (const chunk of stream) chunks.push(chunk);
      })(),
    );
    expect(err.failure).toBe('unavailable');
    expect(chunks).toEqual(['Jeden ', 'dwa ']);
    expect(server.requests).toHaveLength(1);
    await expect(stream.result).rejects.toBeInstanceOf(LlmError);
  });

  it('aborts the provider call when the caller aborts', async () => {
    server.enqueue({ kind: 'text', text: 'słowo '.repeat(200), tokenDelayMs: 20 });
    const controller = new AbortController();
    const chunks: string[] = [];
    const err = await failure(
      (async () => {
        for await (const chunk of model().stream({ ...ask, signal: controller.signal })) {
          chunks.push(chunk);
          if (chunks.length === 3) controller.abort();
        }
      })(),
    );
    expect(err.failure).toBe('cancelled');
    await server.whenClosed(server.requests[0]!);
    expect(server.requests[0]?.closedByClient).toBe(true);
  });

  it('speaks to Azure deployments and to OpenAI through chat completions with their own headers', async () => {
    const azure = model(
      {},
      {
        provider: 'azure',
        model: 'gpt-4o',
        deployment: 'gem-gpt4o',
        apiKey: 'azure-key',
        resourceName: undefined,
        baseUrl: server.url.replace(/\/v1$/, '/openai'),
        apiVersion: '2024-10-21',
      },
    );
    server.enqueue({ kind: 'text', text: 'Azure.' });
    expect((await azure.generate(ask)).text).toBe('Azure.');
    expect(server.requests[0]).toMatchObject({
      path: '/openai/deployments/gem-gpt4o/chat/completions',
      query: { 'api-version': '2024-10-21' },
      headers: { 'api-key': 'azure-key' },
    });

    const openai = model(
      {},
      { provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-test', baseUrl: server.url },
    );
    server.enqueue({ kind: 'text', text: 'OpenAI.' });
    expect((await collect(openai)).result.text).toBe('OpenAI.');
    expect(server.requests[1]).toMatchObject({
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-test' },
      body: { model: 'gpt-4.1-mini', stream: true },
    });
  });
});
