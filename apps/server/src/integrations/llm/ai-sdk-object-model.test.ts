import type { ScriptedReply } from '@gem/test-servers/scripted-replies';
import { describe, expect, inject, it } from 'vitest';
import { recordedWaits, useOpenAiServer } from '../../../test/llm-test-support';
import { z } from 'zod';
import { createAiSdkTextModel, type AiSdkTextModelOptions } from './ai-sdk-text-model';
import {
  LlmError,
  type ObjectModelRequest,
  type PartialObject,
  type StructuredOutputMode,
  type TextModel,
} from './text-model';

// Structured output: the real adapter over HTTP against the OpenAI-compatible test server,
// with the schema sent as response_format json_schema or as a forced tool call.
const openAi = useOpenAiServer();

const brief = z.object({
  title: z.string(),
  points: z.array(z.string()),
  tone: z.enum(['formal', 'casual']),
});
type Brief = z.infer<typeof brief>;

const answer: Brief = {
  title: 'Dane, które przyspieszają decyzje',
  points: ['Automatyzacja raportowania', 'Pomiar co kwartał'],
  tone: 'formal',
};

const modes: StructuredOutputMode[] = ['json-schema', 'tool'];

function ask(mode: StructuredOutputMode, signal?: AbortSignal): ObjectModelRequest<Brief> {
  return {
    system: 'Odpowiadaj po polsku.',
    messages: [{ role: 'user', content: 'Przygotuj konspekt.' }],
    schema: brief,
    schemaName: 'brief',
    schemaDescription: 'Konspekt artykułu',
    mode,
    signal,
  };
}

function model(timeoutMs = 3_000, options: Pick<AiSdkTextModelOptions, 'sleep'> = {}) {
  return createAiSdkTextModel({
    ai: { timeoutMs, maxRetries: 2, retryBaseDelayMs: 20 },
    service: {
      provider: 'openai-compatible',
      model: 'gem-test-model',
      baseUrl: openAi.server.url,
      apiKey: 'k',
    },
    ...options,
  });
}

async function collect(m: TextModel, request: ObjectModelRequest<Brief>) {
  const partials: PartialObject<Brief>[] = [];
  const stream = m.streamObject(request);
  for await (const partial of stream) partials.push(partial);
  return { partials, result: await stream.result };
}

/** Reads the stream into `partials` until it fails; the failure. */
async function streamFailure(m: TextModel, request: ObjectModelRequest<Brief>, partials: unknown[] = []) {
  return failure(
    (async () => {
      for await (const partial of m.streamObject(request)) partials.push(partial);
    })(),
  );
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

/** The brief's JSON schema, as the request carries it. */
const briefSchema = expect.objectContaining({
  type: 'object',
  properties: {
    title: { type: 'string' },
    points: { type: 'array', items: { type: 'string' } },
    tone: { type: 'string', enum: ['formal', 'casual'] },
  },
  required: ['title', 'points', 'tone'],
});

function expectJsonSchemaRequest(index = 0) {
  const body = openAi.server.requests[index]!.body;
  expect(body.response_format).toEqual({
    type: 'json_schema',
    json_schema: { name: 'brief', description: 'Konspekt artykułu', schema: briefSchema, strict: true },
  });
  expect(body.tools).toBeUndefined();
  expect(openAi.server.requests[index]!.structured).toMatchObject({ mode: 'json-schema', name: 'brief' });
}

function expectToolRequest(index = 0) {
  const body = openAi.server.requests[index]!.body;
  expect(body.tools).toEqual([
    {
      type: 'function',
      function: expect.objectContaining({
        name: 'brief',
        description: 'Konspekt artykułu',
        parameters: briefSchema,
      }),
    },
  ]);
  expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'brief' } });
  expect(body.response_format).toBeUndefined();
  expect(openAi.server.requests[index]!.structured).toMatchObject({ mode: 'tool', name: 'brief' });
}

const expectRequest = (mode: StructuredOutputMode, index = 0) =>
  mode === 'tool' ? expectToolRequest(index) : expectJsonSchemaRequest(index);

describe.runIf(inject('dbKind') === 'pglite')('structured output through the AI SDK adapter', () => {
  describe.each(modes)('as %s', (mode) => {
    it('returns the whole object, validated, with the usage and the model', async () => {
      openAi.server.enqueue({ kind: 'object', value: answer });
      const result = await model().object(ask(mode));
      expect(result.object).toEqual(answer);
      expect(result.model).toBe('gem-test-model');
      expect(result.usage.promptTokens).toBe(5);
      expect(result.usage.completionTokens).toBeGreaterThan(0);
      expect(openAi.server.requests[0]?.body.stream).toBeFalsy();
      expectRequest(mode);
    });

    it('streams growing partial objects, then the validated object', async () => {
      openAi.server.enqueue({ kind: 'object', value: answer, chunkChars: 6 });
      const { partials, result } = await collect(model(), ask(mode));
      expect(result.object).toEqual(answer);
      expect(result.usage.completionTokens).toBeGreaterThan(0);
      expect(partials.length).toBeGreaterThan(3);
      expect(partials.at(-1)).toEqual(answer);
      expect(partials[0]).not.toEqual(answer);
      // Each partial holds at least what the one before it held.
      const sizes = partials.map((p) => JSON.stringify(p).length);
      expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
      expect(partials.some((p) => p.title !== undefined && p.title !== answer.title)).toBe(true);
      expect(openAi.server.requests[0]?.body.stream).toBe(true);
      expectRequest(mode);
    });

    it('fails as invalid_output, unretried, on an answer that is not JSON', async () => {
      const notJson: ScriptedReply = { kind: 'raw-json', text: '{"title": "Ala ma' };
      openAi.server.enqueue(notJson);
      const whole = await failure(model().object(ask(mode)));
      expect(whole.failure).toBe('invalid_output');
      expect(whole.message).toMatch(/not valid JSON/);
      expect(whole.cause).toBeDefined();
      expect(openAi.server.requests).toHaveLength(1);

      openAi.server.reset();
      openAi.server.enqueue(notJson);
      const partials: unknown[] = [];
      const streamed = await streamFailure(model(), ask(mode), partials);
      expect(streamed.failure).toBe('invalid_output');
      expect(streamed.message).toMatch(/not valid JSON/);
      expect(streamed.details.cause).toBe(streamed.cause);
      // The partial object was shown while it was written.
      expect(partials.at(-1)).toEqual({ title: 'Ala ma' });
      expect(openAi.server.requests).toHaveLength(1);
    });

    it('fails as invalid_output on an object of the wrong shape', async () => {
      const wrong: ScriptedReply = { kind: 'object', value: { title: 7, points: 'none' } };
      openAi.server.enqueue(wrong);
      const whole = await failure(model().object(ask(mode)));
      expect(whole.failure).toBe('invalid_output');
      expect(whole.message).toMatch(/does not match the schema/);
      expect(whole.cause).toBeDefined();

      openAi.server.enqueue(wrong);
      const streamed = await streamFailure(model(), ask(mode));
      expect(streamed.failure).toBe('invalid_output');
      expect(streamed.message).toMatch(/does not match the schema/);
      expect(openAi.server.requests).toHaveLength(2);
    });

    it('times out a stream that stalls mid-object, and closes the connection', async () => {
      openAi.server.enqueue({
        kind: 'stall',
        text: '{"title": "Ala ma kota", "points": []}',
        afterTokens: 2,
      });
      const partials: unknown[] = [];
      const err = await streamFailure(model(300), ask(mode), partials);
      expect(err.failure).toBe('timeout');
      expect(partials.at(-1)).toEqual({ title: 'Ala ' });
      await openAi.server.whenClosed(openAi.server.requests[0]!);
      expect(openAi.server.requests[0]?.closedByClient).toBe(true);
    });

    it('fails as unavailable, unretried, when the connection drops mid-object', async () => {
      openAi.server.enqueue({
        kind: 'disconnect',
        text: '{"title": "Ala ma kota", "points": []}',
        afterTokens: 2,
      });
      const err = await streamFailure(model(), ask(mode));
      expect(err.failure).toBe('unavailable');
      expect(openAi.server.requests).toHaveLength(1);
    });

    it('retries a 429 before the object, after the Retry-After it was given', async () => {
      openAi.server.enqueue(
        { kind: 'status', status: 429, retryAfterSeconds: 1 },
        { kind: 'object', value: answer },
      );
      const { waits, sleep } = recordedWaits();
      const { result } = await collect(model(3_000, { sleep }), ask(mode));
      expect(result.object).toEqual(answer);
      expect(waits).toEqual([1_000]);
      expect(openAi.server.requests).toHaveLength(2);
      expectRequest(mode, 1);

      openAi.server.reset();
      openAi.server.enqueue(
        { kind: 'status', status: 429, retryAfterMs: 50 },
        { kind: 'object', value: answer },
      );
      expect((await model(3_000, { sleep }).object(ask(mode))).object).toEqual(answer);
      expect(waits).toEqual([1_000, 50]);
    });

    it('takes a 503 with Retry-After as rate_limited, after its retries', async () => {
      openAi.server.enqueue(
        { kind: 'status', status: 503, retryAfterSeconds: 4 },
        { kind: 'status', status: 503, retryAfterSeconds: 4 },
        { kind: 'status', status: 503, retryAfterSeconds: 4 },
      );
      const { waits, sleep } = recordedWaits();
      const err = await failure(model(20_000, { sleep }).object(ask(mode)));
      expect(err).toMatchObject({
        failure: 'rate_limited',
        details: { status: 503, retryAfterSeconds: 4, attempts: 3 },
      });
      expect(waits).toEqual([4_000, 4_000]);
      expect(openAi.server.requests).toHaveLength(3);
    });

    it('aborts the provider call when the caller aborts', async () => {
      openAi.server.enqueue({
        kind: 'object',
        value: { ...answer, points: Array.from({ length: 100 }, (_, i) => `Punkt ${i}`) },
        chunkChars: 4,
        tokenDelayMs: 20,
      });
      const controller = new AbortController();
      const partials: unknown[] = [];
      const err = await failure(
        (async () => {
          for await (const partial of model().streamObject(ask(mode, controller.signal))) {
            partials.push(partial);
            if (partials.length === 3) controller.abort();
          }
        })(),
      );
      expect(err.failure).toBe('cancelled');
      await openAi.server.whenClosed(openAi.server.requests[0]!);
      expect(openAi.server.requests[0]?.closedByClient).toBe(true);
    });
  });

  describe.each(modes)('reading what real models send, as %s', (mode) => {
    const json = JSON.stringify(answer, null, 2);
    const deviations: [string, string][] = [
      ['a ```json fence', `\`\`\`json\n${json}\n\`\`\``],
      ['a sentence before it', `Oto konspekt w formacie JSON:\n\n${json}`],
      ['a note after it', `${json}\n\nDaj znać, jeśli chcesz coś zmienić {np. ton}.`],
      ['a fence between a preamble and a note', `Here you go:\n\`\`\`\n${json}\n\`\`\`\nLet me know!`],
    ];

    it.each(deviations)('takes the object out of %s, whole and streamed', async (_, text) => {
      openAi.server.enqueue({ kind: 'raw-json', text });
      const whole = await model().object(ask(mode));
      expect(whole.object).toEqual(answer);
      expect(whole.finishReason).toBe(mode === 'tool' ? 'tool-calls' : 'stop');

      openAi.server.enqueue({ kind: 'raw-json', text, chunkChars: 5 });
      const { partials, result } = await collect(model(), ask(mode));
      expect(result.object).toEqual(answer);
      // The object shows while it is written, whatever came before it.
      expect(partials.length).toBeGreaterThan(3);
      expect(partials.at(-1)).toEqual(answer);
      expect(openAi.server.requests).toHaveLength(2);
    });

    it('fails as invalid_output with the answer and the first issue, for a repair turn', async () => {
      const text = `Proszę:\n\`\`\`json\n${JSON.stringify({ ...answer, tone: 'friendly' })}\n\`\`\``;
      openAi.server.enqueue({ kind: 'raw-json', text });
      const whole = await failure(model().object(ask(mode)));
      expect(whole.failure).toBe('invalid_output');
      expect(whole.message).toMatch(/does not match the schema/);
      expect(whole.details.rejected).toEqual({
        text,
        path: 'tone',
        message: expect.stringContaining('formal'),
      });

      openAi.server.enqueue({ kind: 'raw-json', text: '{"title": "Ala ma' });
      const streamed = await streamFailure(model(), ask(mode));
      expect(streamed.failure).toBe('invalid_output');
      expect(streamed.details.rejected).toEqual({
        text: '{"title": "Ala ma',
        path: '',
        message: 'The JSON object is not closed: the answer ends inside it.',
      });
    });

    it('asks once more for an object cut at the output limit, then fails as incomplete', async () => {
      const cut: ScriptedReply = { kind: 'raw-json', text: '{"title": "Dane, które', finishReason: 'length' };
      openAi.server.enqueue(cut, { kind: 'object', value: answer });
      const whole = await model().object({ ...ask(mode), maxOutputTokens: 50 });
      expect(whole.object).toEqual(answer);
      // Both calls' tokens are counted (the test server counts 8-character fragments).
      const fragments = (text: string) => Math.ceil(Array.from(text).length / 8);
      expect(whole.usage.completionTokens).toBe(
        fragments('{"title": "Dane, które') + fragments(JSON.stringify(answer)),
      );
      expect(openAi.server.requests.map((r) => r.body.max_tokens)).toEqual([50, 50]);

      openAi.server.reset();
      openAi.server.enqueue(cut, cut);
      const err = await failure(model().object(ask(mode)));
      expect(err.failure).toBe('incomplete');
      expect(openAi.server.requests).toHaveLength(2);

      openAi.server.reset();
      openAi.server.enqueue({ ...cut, chunkChars: 4 }, { ...cut, chunkChars: 4 });
      const partials: unknown[] = [];
      const streamed = await streamFailure(model(), ask(mode), partials);
      expect(streamed.failure).toBe('incomplete');
      // The partials of the cut answer were shown, twice: never a whole object.
      expect(partials.filter((p) => JSON.stringify(p) === '{"title":"Dane, które"}')).toHaveLength(2);
      expect(openAi.server.requests).toHaveLength(2);
    });

    it('returns an object that closed before the output limit cut the note after it', async () => {
      openAi.server.enqueue({
        kind: 'raw-json',
        text: `${JSON.stringify(answer)}\n\nDaj znać, czy`,
        finishReason: 'length',
      });
      const result = await model().object(ask(mode));
      expect(result).toMatchObject({ object: answer, finishReason: 'length' });
      expect(openAi.server.requests).toHaveLength(1);
    });
  });

  it('reads a tool call written as text, as Llama 3 does without a tool parser', async () => {
    const envelope = JSON.stringify({ name: 'brief', parameters: answer });
    openAi.server.enqueue({ kind: 'text', text: envelope });
    expect((await model().object(ask('tool'))).object).toEqual(answer);
    openAi.server.enqueue({ kind: 'text', text: envelope });
    expect((await collect(model(), ask('tool'))).result.object).toEqual(answer);
  });

  it('fails as invalid_output when the model answers text instead of calling the tool', async () => {
    openAi.server.enqueue({ kind: 'text', text: 'Nie użyję narzędzia.' });
    const whole = await failure(model().object(ask('tool')));
    expect(whole.failure).toBe('invalid_output');

    openAi.server.enqueue({ kind: 'text', text: 'Nie użyję narzędzia.' });
    const streamed = await streamFailure(model(), ask('tool'));
    expect(streamed.failure).toBe('invalid_output');
    expect(openAi.server.requests).toHaveLength(2);
  });

  it('keeps the schema’s transforms and defaults in the object it returns', async () => {
    const schema = z.object({
      title: z.string().trim(),
      tone: z.enum(['formal', 'casual']).default('casual'),
    });
    for (const mode of modes) {
      openAi.server.enqueue({ kind: 'object', value: { title: '  Tytuł  ' } });
      const { object } = await model().object({ ...ask(mode), schema });
      expect(object).toEqual({ title: 'Tytuł', tone: 'casual' });
    }
  });
});
