import { describe, expect, inject, it } from 'vitest';
import { recordedWaits, useOpenAiServer } from '../../../test/llm-test-support';
import type { AiServiceConfig } from '../../config';
import { createAiSdkTextModel, type AiSdkTextModelOptions } from './ai-sdk-text-model';
import { LlmError, type TextModel, type TextModelRequest } from './text-model';

// The real adapter over HTTP against the OpenAI-compatible test openAi.server. No database: once is enough.
const openAi = useOpenAiServer();

const ask: TextModelRequest = {
  system: 'Odpowiadaj po polsku.',
  messages: [{ role: 'user', content: 'Napisz zdanie.' }],
};

function model(
  overrides: { timeoutMs?: number; retryBaseDelayMs?: number } = {},
  service?: AiServiceConfig,
  options: Pick<AiSdkTextModelOptions, 'sleep' | 'log'> = {},
) {
  return createAiSdkTextModel({
    ai: { timeoutMs: 3_000, maxRetries: 2, retryBaseDelayMs: 20, ...overrides },
    service: service ?? {
      provider: 'openai-compatible',
      model: 'gem-test-model',
      baseUrl: openAi.server.url,
      apiKey: 'k',
    },
    ...options,
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
    openAi.server.enqueue({ kind: 'text', text: 'Ala ma kota, a kot ma Alę.' });
    const { chunks, result } = await collect(model());
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe('Ala ma kota, a kot ma Alę.');
    expect(result).toEqual({
      text: 'Ala ma kota, a kot ma Alę.',
      usage: { promptTokens: 5, completionTokens: 7 },
      model: 'gem-test-model',
      finishReason: 'stop',
    });
    const [request] = openAi.server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer k');
    expect(request?.body.stream).toBe(true);
    expect(request?.body.messages).toEqual([
      { role: 'system', content: 'Odpowiadaj po polsku.' },
      { role: 'user', content: 'Napisz zdanie.' },
    ]);
  });

  it('generates a whole answer in one piece', async () => {
    openAi.server.enqueue({ kind: 'text', text: 'Gotowe.' });
    const result = await model().generate(ask);
    expect(result.text).toBe('Gotowe.');
    expect(result.usage.completionTokens).toBe(1);
    expect(result.finishReason).toBe('stop');
    expect(openAi.server.requests[0]?.body.stream).toBeFalsy();
  });

  it('says when the text was cut at the output limit, streamed and whole, and leaves it to the caller', async () => {
    const cut = { kind: 'text', text: 'Ala ma kota, a kot', finishReason: 'length' } as const;
    openAi.server.enqueue(cut, cut);
    const { result } = await collect(model());
    expect(result).toMatchObject({ text: 'Ala ma kota, a kot', finishReason: 'length' });
    expect(await model().generate(ask)).toMatchObject({ text: 'Ala ma kota, a kot', finishReason: 'length' });
    expect(openAi.server.requests).toHaveLength(2);
  });

  it('retries a 429 after the Retry-After it was given, at most twice', async () => {
    openAi.server.enqueue(
      { kind: 'status', status: 429, retryAfterSeconds: 1 },
      { kind: 'status', status: 429, retryAfterMs: 150 },
      { kind: 'text', text: 'Po przerwie.' },
    );
    const { waits, sleep } = recordedWaits();
    const warnings: object[] = [];
    const log = { warn: (obj: object) => void warnings.push(obj) };
    const { result } = await collect(model({}, undefined, { sleep, log }));
    expect(result.text).toBe('Po przerwie.');
    expect(openAi.server.requests).toHaveLength(3);
    // The waits asked for are the service's: Retry-After in seconds, then retry-after-ms.
    expect(waits).toEqual([1_000, 150]);
    expect(warnings).toEqual([
      { provider: 'openai-compatible', status: 429, attempt: 1, waitMs: 1_000 },
      { provider: 'openai-compatible', status: 429, attempt: 2, waitMs: 150 },
    ]);

    openAi.server.reset();
    openAi.server.enqueue(
      { kind: 'status', status: 429, retryAfterSeconds: 0 },
      { kind: 'status', status: 429, retryAfterSeconds: 0 },
      { kind: 'status', status: 429, retryAfterSeconds: 7 },
    );
    const err = await failure(collect(model({ timeoutMs: 20_000 })));
    expect(err.failure).toBe('rate_limited');
    expect(err.details.retryAfterSeconds).toBe(7);
    expect(openAi.server.requests).toHaveLength(3);
  });

  it('retries a 500 with backoff, and gives up on the third', async () => {
    openAi.server.enqueue(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'text', text: 'Jest.' },
    );
    const { waits, sleep } = recordedWaits();
    expect((await model({}, undefined, { sleep }).generate(ask)).text).toBe('Jest.');
    expect(openAi.server.requests).toHaveLength(3);
    // No Retry-After: the base delay, doubled.
    expect(waits).toEqual([20, 40]);

    openAi.server.reset();
    openAi.server.enqueue(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      { kind: 'status', status: 500 },
    );
    const err = await failure(collect(model()));
    expect(err).toMatchObject({ failure: 'unavailable', details: { status: 500, attempts: 3 } });
    expect(openAi.server.requests).toHaveLength(3);
  });

  it('does not retry other errors, nor a wait that would outlast the timeout', async () => {
    openAi.server.enqueue({ kind: 'status', status: 401, message: 'bad key' });
    expect((await failure(model().generate(ask))).details.status).toBe(401);
    expect(openAi.server.requests).toHaveLength(1);

    openAi.server.reset();
    openAi.server.enqueue({ kind: 'status', status: 429, retryAfterSeconds: 30 });
    const { waits, sleep } = recordedWaits();
    const err = await failure(collect(model({ timeoutMs: 2_000 }, undefined, { sleep })));
    expect(err.failure).toBe('rate_limited');
    expect(err.details).toMatchObject({ status: 429, retryAfterSeconds: 30, attempts: 1 });
    // The 30 s wait would outlast the 2 s timeout: it is never started.
    expect(waits).toEqual([]);
    expect(openAi.server.requests).toHaveLength(1);
  });

  it('takes a 503 with Retry-After for a busy service, retried, and one without for an unavailable one', async () => {
    openAi.server.enqueue(
      { kind: 'status', status: 503, retryAfterSeconds: 2 },
      { kind: 'status', status: 503, retryAfterSeconds: 2 },
      { kind: 'status', status: 503, retryAfterSeconds: 3 },
    );
    const { waits, sleep } = recordedWaits();
    const err = await failure(collect(model({ timeoutMs: 20_000 }, undefined, { sleep })));
    expect(err).toMatchObject({
      failure: 'rate_limited',
      details: { status: 503, retryAfterSeconds: 3, attempts: 3 },
    });
    expect(waits).toEqual([2_000, 2_000]);
    expect(openAi.server.requests).toHaveLength(3);

    openAi.server.reset();
    openAi.server.enqueue({ kind: 'status', status: 503, retryAfterMs: 10 }, { kind: 'text', text: 'Już.' });
    expect((await model({}, undefined, { sleep }).generate(ask)).text).toBe('Już.');

    openAi.server.reset();
    openAi.server.enqueue(
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    );
    const plain = await failure(model({}, undefined, { sleep }).generate(ask));
    expect(plain).toMatchObject({ failure: 'unavailable', details: { status: 503, attempts: 3 } });
    expect(plain.details.retryAfterSeconds).toBeUndefined();
  });

  it('times out a service that hangs, or stalls mid-stream, and closes the connection', async () => {
    openAi.server.enqueue({ kind: 'hang' });
    expect((await failure(collect(model({ timeoutMs: 300 })))).failure).toBe('timeout');
    await openAi.server.whenClosed(openAi.server.requests[0]!);
    expect(openAi.server.requests[0]?.closedByClient).toBe(true);

    openAi.server.enqueue({ kind: 'stall', text: 'Zaczynam i milknę.', afterTokens: 1 });
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
    openAi.server.enqueue({ kind: 'disconnect', text: 'Jeden dwa trzy cztery.', afterTokens: 2 });
    const chunks: string[] = [];
    const stream = model().stream(ask);
    const err = await failure(
      (async () => {
        for await (const chunk of stream) chunks.push(chunk);
      })(),
    );
    expect(err.failure).toBe('unavailable');
    expect(chunks).toEqual(['Jeden ', 'dwa ']);
    expect(openAi.server.requests).toHaveLength(1);
    await expect(stream.result).rejects.toBeInstanceOf(LlmError);
  });

  it('aborts the provider call when the caller aborts', async () => {
    openAi.server.enqueue({ kind: 'text', text: 'słowo '.repeat(200), tokenDelayMs: 20 });
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
    await openAi.server.whenClosed(openAi.server.requests[0]!);
    expect(openAi.server.requests[0]?.closedByClient).toBe(true);
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
        baseUrl: openAi.server.url.replace(/\/v1$/, '/openai'),
        apiVersion: '2024-10-21',
      },
    );
    openAi.server.enqueue({ kind: 'text', text: 'Azure.' });
    expect((await azure.generate(ask)).text).toBe('Azure.');
    expect(openAi.server.requests[0]).toMatchObject({
      path: '/openai/deployments/gem-gpt4o/chat/completions',
      query: { 'api-version': '2024-10-21' },
      headers: { 'api-key': 'azure-key' },
    });

    const openai = model(
      {},
      { provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-test', baseUrl: openAi.server.url },
    );
    openAi.server.enqueue({ kind: 'text', text: 'OpenAI.' });
    expect((await collect(openai)).result.text).toBe('OpenAI.');
    expect(openAi.server.requests[1]).toMatchObject({
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-test' },
      body: { model: 'gpt-4.1-mini', stream: true },
    });
  });
});
