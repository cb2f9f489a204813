import { sampleFromSchema, structuredRequestOf } from '@gem/test-servers/structured-requests';
import { describe, expect, inject, it } from 'vitest';
import { useOpenAiServer } from '../../../test/llm-test-support';
import { z } from 'zod';
import { createAiSdkTextModel } from './ai-sdk-text-model';

// The OpenAI-compatible test server's structured-output side (the package has no test project
// of its own): the control API's new reply kinds, and objects made up from a request's schema.
const openAi = useOpenAiServer();

const controlUrl = () => openAi.server.url.replace(/\/v1$/, '/__control');

const chat = (body: object) =>
  fetch(`${openAi.server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gem-test-model', messages: [{ role: 'user', content: 'Hej' }], ...body }),
  }).then(
    (res) =>
      res.json() as Promise<{ choices: { message: Record<string, unknown>; finish_reason: string }[] }>,
  );

const model = () =>
  createAiSdkTextModel({
    ai: { timeoutMs: 3_000, maxRetries: 0, retryBaseDelayMs: 20 },
    service: {
      provider: 'openai-compatible',
      model: 'gem-test-model',
      baseUrl: openAi.server.url,
      apiKey: 'k',
    },
  });

describe.runIf(inject('dbKind') === 'pglite')('the OpenAI-compatible test server', () => {
  it('takes object and raw-json replies over its control API, and refuses malformed ones', async () => {
    const post = (body: unknown) =>
      fetch(`${controlUrl()}/replies`, { method: 'POST', body: JSON.stringify(body) });
    expect(
      (
        await post([
          { kind: 'object', value: { a: 1 } },
          { kind: 'raw-json', text: '{"a":' },
        ])
      ).status,
    ).toBe(200);
    expect((await post([{ kind: 'object' }])).status).toBe(400);
    expect((await post([{ kind: 'raw-json', text: 5 }])).status).toBe(400);
    expect((await post([{ kind: 'nonsense' }])).status).toBe(400);

    const tool = {
      tools: [{ type: 'function', function: { name: 'brief', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'brief' } },
    };
    const first = await chat(tool);
    expect(first.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [{ type: 'function', function: { name: 'brief', arguments: '{"a":1}' } }],
      },
    });
    const second = await chat({
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } },
    });
    expect(second.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: '{"a":' } });

    const recorded = (await (await fetch(`${controlUrl()}/requests`)).json()) as {
      requests: { structured?: unknown }[];
    };
    expect(recorded.requests.map((r) => r.structured)).toEqual([
      { mode: 'tool', name: 'brief', schema: { type: 'object' } },
      { mode: 'json-schema', name: 'x', schema: {} },
    ]);
  });

  it('ends a reply with the finish_reason it was given, and sends a preamble beside a tool call', async () => {
    const post = (body: unknown) =>
      fetch(`${controlUrl()}/replies`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post([{ kind: 'raw-json', text: '{', finishReason: 'sideways' }])).status).toBe(400);
    expect(
      (
        await post([
          { kind: 'raw-json', text: '{"a": "cut', finishReason: 'length' },
          { kind: 'object', value: { a: 1 }, preamble: 'I will fill it in.' },
        ])
      ).status,
    ).toBe(200);
    const cut = await chat({});
    expect(cut.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: '{"a": "cut' } });
    const tool = await chat({
      tools: [{ type: 'function', function: { name: 'brief', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'brief' } },
    });
    expect(tool.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { content: 'I will fill it in.', tool_calls: [{ function: { arguments: '{"a":1}' } }] },
    });
  });

  it('tells what a request asked for from its response_format, tools and tool_choice', () => {
    expect(structuredRequestOf({ messages: [] })).toBeUndefined();
    expect(structuredRequestOf({ response_format: { type: 'json_object' } })).toBeUndefined();
    const tools = [
      { type: 'function', function: { name: 'one', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'two', parameters: { type: 'array' } } },
    ];
    expect(
      structuredRequestOf({ tools, tool_choice: { type: 'function', function: { name: 'two' } } }),
    ).toEqual({
      mode: 'tool',
      name: 'two',
      schema: { type: 'array' },
    });
    expect(structuredRequestOf({ tools, tool_choice: 'required' })?.name).toBe('one');
    expect(structuredRequestOf({ tools, tool_choice: 'none' })).toBeUndefined();
  });

  it('answers a structured request with no reply queued by an object made up from its schema', async () => {
    const schema = z.object({
      title: z.string().min(40).max(60),
      count: z.number().int().min(3),
      tags: z.array(z.enum(['a', 'b'])).min(2),
      kind: z.literal('post'),
      link: z.url(),
      author: z.object({ name: z.string(), email: z.email().optional() }),
      note: z.string().nullable(),
    });
    for (const mode of ['json-schema', 'tool'] as const) {
      const { object } = await model().object({
        system: 'Odpowiadaj po polsku.',
        messages: [{ role: 'user', content: 'Cokolwiek.' }],
        schema,
        mode,
      });
      expect(object.title.length).toBeGreaterThanOrEqual(40);
      expect(object).toMatchObject({
        count: 3,
        tags: ['a', 'a'],
        kind: 'post',
        link: 'https://example.com/',
      });
      expect(object.author.name).toBe('Przykładowy tekst odpowiedzi.');
    }
  });

  it('makes up values from a JSON schema, references and unions included', () => {
    expect(
      sampleFromSchema({
        type: 'object',
        properties: {
          item: { $ref: '#/$defs/item' },
          either: { anyOf: [{ type: 'null' }, { type: 'integer', exclusiveMinimum: 4 }] },
          short: { type: 'string', maxLength: 5 },
          flag: { type: 'boolean' },
          when: { type: 'string', format: 'date-time' },
        },
        $defs: { item: { type: 'array', items: { const: 'x' }, minItems: 2 } },
      }),
    ).toEqual({ item: ['x', 'x'], either: 5, short: 'Przyk', flag: true, when: '2026-01-15T10:00:00.000Z' });
  });
});
