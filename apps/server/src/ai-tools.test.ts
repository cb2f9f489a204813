import {
  aiStatusResponseSchema,
  generationHistoryResponseSchema,
  generatorPaths,
  INPUT_CHARACTER_LIMIT,
  OUTPUT_CHARACTER_LIMIT,
  type GenerationEvent,
  type GeneratorName,
} from '@gem/contracts/generators';
import { errorResponseSchema } from '@gem/contracts/errors';
import type { RecordedRequest } from '@gem/test-servers/openai-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseEvents, startAiHarness, streamedText, type AiHarness } from '../test/ai-harness';
import type { App } from './app';
import { generations as generationsTable, users } from './db/schema/index';
import { countCharacters } from './lib/text-limit';

/**
 * The AI writing tools end to end inside the server: the protected routes, the real AI SDK
 * adapter over HTTP against the OpenAI-compatible test server, and a real database.
 */

let h: AiHarness;
let app: App;

beforeAll(async () => {
  h = await startAiHarness();
  app = await h.app();
});
afterAll(() => h?.close());
beforeEach(() => h.ai.reset());

const inputs = {
  article: {
    content: 'GEM pomaga zespołom marketingu pisać szybciej.',
    task: 'Napisz krótki artykuł na bloga.',
  },
  'social-media-post': {
    summary: 'Raport o cyfryzacji firm.',
    content: 'Pełny raport o cyfryzacji średnich firm w Polsce.',
    description: 'Post zapowiadający raport.',
    format: 200,
    persona: 'CEO',
  },
  'paid-ads': { content: 'Raport o cyfryzacji dla dyrektorów finansowych.' },
  'teaser-generator': { content: 'Nowy raport o rynku pracy.' },
  summarize: { documentText: 'Długi dokument o rynku nieruchomości w Polsce w 2026 roku.' },
} satisfies Record<GeneratorName, unknown>;

async function generate(name: GeneratorName, user = 'ala', payload: unknown = inputs[name], target = app) {
  return target.inject({
    method: 'POST',
    url: generatorPaths.generate(name),
    headers: { authorization: await h.bearer(user) },
    payload: payload as object,
  });
}

async function history(name: GeneratorName, user: string) {
  const res = await app.inject({
    method: 'GET',
    url: generatorPaths.history(name),
    headers: { authorization: await h.bearer(user) },
  });
  expect(res.statusCode).toBe(200);
  return generationHistoryResponseSchema.parse(res.json()).items;
}

const systemOf = (r: RecordedRequest | undefined) =>
  r?.body.messages?.find((m) => m.role === 'system')?.content ?? '';
const userOf = (r: RecordedRequest | undefined) =>
  r?.body.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
const finalOf = (events: GenerationEvent[]) => {
  const final = events.at(-1);
  if (final?.type !== 'final') throw new Error(`no final event: ${JSON.stringify(events)}`);
  return final;
};
const errorOf = (res: { json(): unknown }) => errorResponseSchema.parse(res.json()).error;

/** Polish words a Polish prompt cannot do without. */
const polish = /po polsku/;
const sentence = (n: number) => `To jest zdanie numer ${n}, które ma sens. `; // 41-42 characters

describe('AI status', () => {
  it('names the configured provider and model', async () => {
    const res = await app.inject({
      method: 'GET',
      url: generatorPaths.aiStatus,
      headers: { authorization: await h.bearer('ala') },
    });
    expect(aiStatusResponseSchema.parse(res.json())).toEqual({
      configured: true,
      provider: 'openai-compatible',
      model: 'gem-test-model',
    });
  });
});

describe('the article generator', () => {
  it('streams the answer as NDJSON, then a final that replaces it, and records the generation', async () => {
    h.ai.enqueue({ kind: 'text', text: 'Krótki artykuł o GEM. Pisze się szybciej.' });
    const res = await generate('article');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    const events = parseEvents(res.body);
    expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(3);
    expect(streamedText(events)).toBe('Krótki artykuł o GEM. Pisze się szybciej.');
    const final = finalOf(events);
    expect(final.output).toEqual({
      text: 'Krótki artykuł o GEM. Pisze się szybciej.',
      shortened: false,
      truncated: false,
    });

    // The prompt is built on the server, in Polish, with the 600-character rule and the inputs.
    const [request] = h.ai.requests;
    expect(systemOf(request)).toMatch(polish);
    expect(systemOf(request)).toContain('najwyżej 600 znaków');
    expect(userOf(request)).toContain(inputs.article.task);
    expect(userOf(request)).toContain(inputs.article.content);

    const [row] = await h.database.db
      .select()
      .from(generationsTable)
      .where(eq(generationsTable.id, final.generationId));
    expect(row).toMatchObject({
      generator: 'article',
      input: inputs.article,
      output: final.output,
      model: 'gem-test-model',
      outcome: 'succeeded',
      errorCode: null,
      completionTokens: 7,
    });
    expect(row?.promptTokens).toBeGreaterThan(50);
    expect(row?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('asks once to shorten an answer over 600 characters, and streams the shorter one after a restart', async () => {
    const long = Array.from({ length: 17 }, (_, i) => sentence(i)).join(''); // about 700
    const short = 'Krótsza wersja artykułu. Mieści się w limicie.';
    h.ai.enqueue({ kind: 'text', text: long }, { kind: 'text', text: short });
    const events = parseEvents((await generate('article')).body);
    const restartAt = events.findIndex((e) => e.type === 'restart');
    expect(restartAt).toBeGreaterThan(0);
    expect(events.slice(restartAt + 1).some((e) => e.type === 'delta')).toBe(true);
    expect(streamedText(events)).toBe(short);
    expect(finalOf(events).output).toEqual({ text: short, shortened: true, truncated: false });

    // The follow-up carries the first answer and asks, in Polish, for at most 600 characters.
    expect(h.ai.requests).toHaveLength(2);
    const followUp = h.ai.requests[1]?.body.messages ?? [];
    expect(followUp.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(followUp[2]?.content).toBe(long);
    expect(followUp[3]?.content).toContain(`ma ${countCharacters(long.trim())} znaków`);
    expect(followUp[3]?.content).toContain('najwyżej 600 znaków');
  });

  it('cuts at the last sentence end that fits when the shorter answer is still over', async () => {
    const long = Array.from({ length: 20 }, (_, i) => sentence(i)).join('');
    h.ai.enqueue({ kind: 'text', text: long }, { kind: 'text', text: `🚀 ${long}` });
    const output = finalOf(parseEvents((await generate('article')).body)).output;
    expect(output).toMatchObject({ shortened: true, truncated: true });
    expect(countCharacters(output.text)).toBeLessThanOrEqual(OUTPUT_CHARACTER_LIMIT);
    expect(countCharacters(output.text)).toBeGreaterThan(OUTPUT_CHARACTER_LIMIT - 45);
    expect(output.text.startsWith('🚀 To jest zdanie numer 0')).toBe(true);
    expect(output.text.endsWith('ma sens.')).toBe(true);
  });

  it('cuts the first answer when the request to shorten fails', async () => {
    const long = Array.from({ length: 20 }, (_, i) => sentence(i)).join('');
    h.ai.enqueue({ kind: 'text', text: long }, ...Array(3).fill({ kind: 'status', status: 500 }));
    const output = finalOf(parseEvents((await generate('article')).body)).output;
    expect(output).toMatchObject({ shortened: true, truncated: true });
    expect(output.text.startsWith('To jest zdanie numer 0')).toBe(true);
    expect(countCharacters(output.text)).toBeLessThanOrEqual(OUTPUT_CHARACTER_LIMIT);
  });

  it('refuses empty fields and content over the size limit with a clear message, before any AI call', async () => {
    const empty = await generate('article', 'ala', { content: '   ', task: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).issues).toEqual([{ path: 'body.content', message: 'The content is empty.' }]);

    const huge = await generate('article', 'ala', {
      content: 'x'.repeat(INPUT_CHARACTER_LIMIT + 1),
      task: 'x',
    });
    expect(huge.statusCode).toBe(400);
    expect(errorOf(huge)).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: 'body.content', message: 'The content is too long: at most 20,000 characters.' }],
    });
    expect(h.ai.requests).toHaveLength(0);
  });
});

describe('the paid ads generator', () => {
  const analysis = `- Grupa docelowa: dyrektorzy finansowi.\n- ${'Bardzo długa analiza rynku. '.repeat(30)}`;

  it('asks for an analysis and a copy of at most 600 characters; only the copy counts', async () => {
    const copy = 'Sprawdź raport 📊 i decyduj szybciej! 👉';
    h.ai.enqueue({ kind: 'text', text: `## Analiza\n\n${analysis}\n\n## Tekst reklamy\n\n${copy}` });
    const output = finalOf(parseEvents((await generate('paid-ads')).body)).output;
    expect(countCharacters(analysis)).toBeGreaterThan(OUTPUT_CHARACTER_LIMIT);
    expect(output).toEqual({
      text: `## Analiza\n\n${analysis.trim()}\n\n## Tekst reklamy\n\n${copy}`,
      analysis: analysis.trim(),
      copy,
      shortened: false,
      truncated: false,
    });
    const system = systemOf(h.ai.requests[0]);
    expect(system).toMatch(polish);
    expect(system).toContain('## Analiza');
    expect(system).toContain('## Tekst reklamy');
    expect(system).toContain('najwyżej 600 znaków łącznie ze spacjami i emoji');
    expect(h.ai.requests).toHaveLength(1);
  });

  it('shortens, then cuts, the copy alone and keeps the analysis', async () => {
    const longCopy = 'Kup teraz, bo warto 🚀. '.repeat(40); // 919 characters, once trimmed
    const answer = `**Analiza:**\n${analysis}\n\n**Tekst reklamy:** ${longCopy}`;
    h.ai.enqueue({ kind: 'text', text: answer }, { kind: 'text', text: answer });
    const events = parseEvents((await generate('paid-ads')).body);
    expect(events.some((e) => e.type === 'restart')).toBe(true);
    const output = finalOf(events).output;
    expect(output).toMatchObject({ analysis: analysis.trim(), shortened: true, truncated: true });
    expect(countCharacters(output.copy ?? '')).toBeLessThanOrEqual(OUTPUT_CHARACTER_LIMIT);
    expect(output.copy?.endsWith('warto 🚀.')).toBe(true);
    expect(output.text).toBe(`## Analiza\n\n${analysis.trim()}\n\n## Tekst reklamy\n\n${output.copy}`);
    expect(userOf(h.ai.requests[1])).toContain(`Tekst reklamy ma ${countCharacters(longCopy.trim())} znaków`);
  });
});

describe('the social post, teaser and summarize generators', () => {
  it('write the post as the CEO within the chosen word limit, from summary, content and description', async () => {
    await generate('social-media-post');
    await generate('social-media-post', 'ala', { ...inputs['social-media-post'], format: 300 });
    const [short, long] = h.ai.requests;
    for (const r of [short, long]) {
      expect(systemOf(r)).toMatch(polish);
      expect(systemOf(r)).toContain('prezesa zarządu (CEO)');
      expect(userOf(r)).toContain(inputs['social-media-post'].summary);
      expect(userOf(r)).toContain(inputs['social-media-post'].content);
      expect(userOf(r)).toContain(inputs['social-media-post'].description);
    }
    expect(systemOf(short)).toContain('najwyżej 200 słów');
    expect(systemOf(long)).toContain('najwyżej 300 słów');
    const bad = await generate('social-media-post', 'ala', { ...inputs['social-media-post'], format: 250 });
    expect(bad.statusCode).toBe(400);
  });

  it('writes a teaser as plain e-mail text in Polish', async () => {
    h.ai.enqueue({ kind: 'text', text: 'Przeczytaj nasz nowy raport.' });
    const output = finalOf(parseEvents((await generate('teaser-generator')).body)).output;
    expect(output.text).toBe('Przeczytaj nasz nowy raport.');
    const system = systemOf(h.ai.requests[0]);
    expect(system).toMatch(polish);
    expect(system).toContain('2–4 zdania');
    expect(system).toContain('bez Markdownu');
    expect(userOf(h.ai.requests[0])).toContain(inputs['teaser-generator'].content);
  });

  it('summarizes in Polish, streamed and through the spec §7 call, both in the history', async () => {
    h.ai.enqueue(
      { kind: 'text', text: 'Streszczenie strumieniowe.' },
      { kind: 'text', text: 'Streszczenie JSON.' },
    );
    expect(finalOf(parseEvents((await generate('summarize', 'summer')).body)).output.text).toBe(
      'Streszczenie strumieniowe.',
    );
    const res = await app.inject({
      method: 'POST',
      url: generatorPaths.summarizePrompt,
      headers: { authorization: await h.bearer('summer') },
      payload: { documentText: 'Dokument do streszczenia.' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ summary: 'Streszczenie JSON.' });
    for (const r of h.ai.requests) {
      expect(systemOf(r)).toMatch(polish);
      expect(systemOf(r)).toContain('5–8 zdań');
    }
    expect(h.ai.requests[1]?.body.stream).toBeFalsy();
    const items = await history('summarize', 'summer');
    expect(items.map((i) => i.output?.text)).toEqual(['Streszczenie JSON.', 'Streszczenie strumieniowe.']);
    expect(items[0]?.input).toEqual({ documentText: 'Dokument do streszczenia.' });
  });

  it('answers the spec §7 generate-prompt call with { prediction }, framed in Polish', async () => {
    h.ai.enqueue({ kind: 'text', text: 'Gotowa odpowiedź.' });
    const res = await app.inject({
      method: 'POST',
      url: generatorPaths.generatePrompt,
      headers: { authorization: await h.bearer('ala') },
      payload: { userPrompt: 'Napisz hasło reklamowe.' },
    });
    expect(res.json()).toEqual({ prediction: 'Gotowa odpowiedź.' });
    expect(systemOf(h.ai.requests[0])).toMatch(polish);
    expect(userOf(h.ai.requests[0])).toBe('Napisz hasło reklamowe.');
  });
});

describe('faults of the AI service', () => {
  /** After each fault, the server still answers the next request normally. */
  async function stillHealthy() {
    h.ai.enqueue({ kind: 'text', text: 'Działa dalej.' });
    expect(finalOf(parseEvents((await generate('teaser-generator', 'healthy')).body)).output.text).toBe(
      'Działa dalej.',
    );
  }

  it('retries a 429 after its Retry-After and then streams the answer', async () => {
    h.ai.enqueue(
      { kind: 'status', status: 429, retryAfterSeconds: 0 },
      { kind: 'text', text: 'Za drugim razem.' },
    );
    const res = await generate('article');
    expect(res.statusCode).toBe(200);
    expect(finalOf(parseEvents(res.body)).output.text).toBe('Za drugim razem.');
    expect(h.ai.requests).toHaveLength(2);
  });

  it('answers 502 ai_unavailable in the error shape when 500s outlast the retries', async () => {
    h.ai.enqueue(...Array(3).fill({ kind: 'status', status: 500, message: 'secret upstream detail' }));
    const res = await generate('article');
    expect(res.statusCode).toBe(502);
    expect(errorOf(res)).toMatchObject({
      code: 'ai_unavailable',
      message: 'The AI service is not available right now. Please try again.',
    });
    expect(res.body).not.toContain('secret upstream detail');
    expect(h.ai.requests).toHaveLength(3);

    h.ai.enqueue(...Array(3).fill({ kind: 'status', status: 503 }));
    const json = await app.inject({
      method: 'POST',
      url: generatorPaths.generatePrompt,
      headers: { authorization: await h.bearer('ala') },
      payload: { userPrompt: 'x' },
    });
    expect(json.statusCode).toBe(502);
    expect(errorOf(json).code).toBe('ai_unavailable');
    await stillHealthy();
  });

  it('answers 503 with Retry-After when the service keeps answering 429', async () => {
    h.ai.enqueue(...Array(3).fill({ kind: 'status', status: 429, retryAfterSeconds: 0 }));
    const res = await generate('paid-ads');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('10');
    expect(errorOf(res).code).toBe('ai_unavailable');
    await stillHealthy();
  });

  it('answers 504 when the service hangs past the timeout, and sends an error event when it stalls mid-stream', async () => {
    const impatient = await h.app({ timeoutMs: 300 });
    h.ai.enqueue({ kind: 'hang' });
    const res = await generate('article', 'ala', inputs.article, impatient);
    expect(res.statusCode).toBe(504);
    expect(errorOf(res)).toMatchObject({
      code: 'ai_unavailable',
      message: expect.stringContaining('in time'),
    });

    h.ai.enqueue({ kind: 'stall', text: 'Zaczynam i nagle cisza.', afterTokens: 2 });
    const stalled = await generate('article', 'ala', inputs.article, impatient);
    expect(stalled.statusCode).toBe(200);
    const events = parseEvents(stalled.body);
    expect(streamedText(events)).toBe('Zaczynam i ');
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: { code: 'ai_unavailable', message: 'The AI service did not answer in time. Please try again.' },
    });
    await stillHealthy();
  });

  it('sends an error event, and no final, when the service drops the connection mid-stream', async () => {
    h.ai.enqueue({ kind: 'disconnect', text: 'Jeden dwa trzy cztery pięć.', afterTokens: 3 });
    const res = await generate('article', 'dropped');
    expect(res.statusCode).toBe(200);
    const events = parseEvents(res.body);
    expect(streamedText(events)).toBe('Jeden dwa trzy ');
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'ai_unavailable' } });
    expect(events.some((e) => e.type === 'final')).toBe(false);
    const [record] = await history('article', 'dropped');
    expect(record).toMatchObject({ outcome: 'failed', output: null });
    await stillHealthy();
  });

  it('sends a final with empty text when the model says nothing (the page shows its empty-result text)', async () => {
    h.ai.enqueue({ kind: 'text', text: '' });
    const events = parseEvents((await generate('teaser-generator', 'quiet')).body);
    expect(events).toEqual([
      {
        type: 'final',
        generationId: expect.any(String),
        output: { text: '', shortened: false, truncated: false },
      },
    ]);
    expect((await history('teaser-generator', 'quiet'))[0]?.outcome).toBe('failed');
  });
});

describe('streaming over real HTTP', () => {
  let origin: string;
  beforeAll(async () => {
    const listening = await h.app();
    origin = await listening.listen({ port: 0, host: '127.0.0.1' });
  });

  async function post(user: string, signal?: AbortSignal) {
    return fetch(`${origin}${generatorPaths.generate('article')}`, {
      method: 'POST',
      headers: { authorization: await h.bearer(user), 'content-type': 'application/json' },
      body: JSON.stringify(inputs.article),
      signal: signal ?? null,
    });
  }

  async function firstLine(res: Response) {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    while (!buffer.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
    }
    return { event: JSON.parse(buffer.split('\n')[0]!) as GenerationEvent, reader };
  }

  it('writes each piece as it comes: the first text arrives while the model is still writing', async () => {
    h.ai.enqueue({ kind: 'text', text: 'słowo '.repeat(20), tokenDelayMs: 20 });
    const res = await post('fast');
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const { event, reader } = await firstLine(res);
    expect(event).toEqual({ type: 'delta', text: 'słowo ' });
    expect(h.ai.requests[0]?.finished).toBe(false);
    while (!(await reader.read()).done);
  });

  it('aborts the model call when the browser disconnects, and records the generation as cancelled', async () => {
    h.ai.enqueue({ kind: 'text', text: 'słowo '.repeat(200), tokenDelayMs: 20 });
    const browser = new AbortController();
    const res = await post('leaver', browser.signal);
    await firstLine(res);
    browser.abort();
    const upstream = h.ai.requests[0]!;
    await h.ai.whenClosed(upstream);
    expect(upstream.closedByClient).toBe(true);
    await expect.poll(async () => (await history('article', 'leaver'))[0]?.outcome).toBe('cancelled');
    // The user's slot is free again and the server healthy.
    h.ai.enqueue({ kind: 'text', text: 'Dalej.' });
    const next = await post('leaver');
    expect(parseEvents(await next.text()).at(-1)).toMatchObject({
      type: 'final',
      output: { text: 'Dalej.' },
    });
  });
});

describe('per-user limits', () => {
  it('answers 429 with Retry-After over the rate, for that user only', async () => {
    const strict = await h.app({ limits: { perMinute: 2, concurrent: 5 } });
    for (let i = 0; i < 2; i += 1)
      expect((await generate('teaser-generator', 'busy', undefined, strict)).statusCode).toBe(200);
    const refused = await generate('teaser-generator', 'busy', undefined, strict);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({
      code: 'too_many_requests',
      message: expect.stringContaining('2 times'),
    });
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(h.ai.requests).toHaveLength(2);
    // The spec §7 calls count too; another user is not affected.
    const json = await strict.inject({
      method: 'POST',
      url: generatorPaths.generatePrompt,
      headers: { authorization: await h.bearer('busy') },
      payload: { userPrompt: 'x' },
    });
    expect(json.statusCode).toBe(429);
    expect((await generate('teaser-generator', 'calm', undefined, strict)).statusCode).toBe(200);
  });

  it('answers 429 over the concurrency limit, counted across server instances', async () => {
    const limits = { perMinute: 100, concurrent: 2 };
    const [one, two] = [await h.app({ limits }), await h.app({ limits })];
    h.ai.enqueue(
      { kind: 'text', text: 'wolno '.repeat(10), tokenDelayMs: 40 },
      { kind: 'text', text: 'wolno '.repeat(10), tokenDelayMs: 40 },
    );
    const running = [
      generate('article', 'eager', undefined, one),
      generate('article', 'eager', undefined, two),
    ];
    await h.ai.whenRequested(2);
    const third = await generate('article', 'eager', undefined, one);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('5');
    expect(errorOf(third).message).toContain('2 AI requests running');
    expect((await Promise.all(running)).map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await generate('article', 'eager', undefined, two)).statusCode).toBe(200);
  });
});

describe('history', () => {
  it("shows each user their own last 20 of a tool, newest first, and never someone else's", async () => {
    h.ai.enqueue(
      { kind: 'text', text: 'Ola pierwszy.' },
      { kind: 'text', text: 'Ola drugi.' },
      { kind: 'text', text: 'Ela.' },
    );
    await generate('article', 'ola');
    await generate('article', 'ola', { content: 'Inna treść.', task: 'Inne zadanie.' });
    await generate('article', 'ela');
    await generate('teaser-generator', 'ola');

    const ola = await history('article', 'ola');
    expect(ola.map((i) => i.output?.text)).toEqual(['Ola drugi.', 'Ola pierwszy.']);
    expect(ola[0]).toMatchObject({
      generator: 'article',
      input: { content: 'Inna treść.', task: 'Inne zadanie.' },
      outcome: 'succeeded',
    });
    expect((await history('article', 'ela')).map((i) => i.output?.text)).toEqual(['Ela.']);
    expect(await history('article', 'nobody')).toEqual([]);

    // Only the last 20.
    const [user] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.subject, 'ola'));
    await h.database.db.insert(generationsTable).values(
      Array.from({ length: 25 }, (_, i) => ({
        userId: user!.id,
        generator: 'article',
        input: { content: `stara ${i}`, task: 't' },
        output: { text: `Stary ${i}.`, shortened: false, truncated: false },
        latencyMs: 1,
        outcome: 'succeeded' as const,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })),
    );
    const last = await history('article', 'ola');
    expect(last).toHaveLength(20);
    expect(last.slice(0, 2).map((i) => i.output?.text)).toEqual(['Ola drugi.', 'Ola pierwszy.']);
    expect(last[2]?.output?.text).toBe('Stary 24.');
  });
});

describe('without an AI service', () => {
  it('says so in the status, and every AI call answers 503 ai_not_configured, whatever the body', async () => {
    const plain = await h.app({ service: null });
    const authorization = await h.bearer('ala');
    const status = await plain.inject({
      method: 'GET',
      url: generatorPaths.aiStatus,
      headers: { authorization },
    });
    expect(status.json()).toEqual({ configured: false, provider: null, model: null });

    const calls = [
      ...(Object.keys(inputs) as GeneratorName[]).map((name) => generatorPaths.generate(name)),
      generatorPaths.generatePrompt,
      generatorPaths.summarizePrompt,
    ];
    for (const url of calls) {
      for (const payload of [{}, inputs.article]) {
        const res = await plain.inject({ method: 'POST', url, headers: { authorization }, payload });
        expect(res.statusCode, url).toBe(503);
        expect(errorOf(res), url).toMatchObject({
          code: 'ai_not_configured',
          message: expect.stringContaining('GEM_AI_PROVIDER'),
        });
      }
    }
    expect(
      (
        await plain.inject({
          method: 'GET',
          url: generatorPaths.history('article'),
          headers: { authorization },
        })
      ).statusCode,
    ).toBe(200);
    expect(h.ai.requests).toHaveLength(0);
  });
});
