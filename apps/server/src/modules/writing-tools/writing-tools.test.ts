import { writingToolPaths, type GenerationEvent } from '@gem/contracts/writing-tools';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  useAiHarness,
  parseEvents,
  streamedText,
  sampleInputs,
  finalOf,
  errorOf,
} from '../../../test/ai-harness';
import { generations as generationsTable, users } from '../../db/schema/index';

/**
 * The writing-tools kit over the article route: faults of the AI service as answers and events, streaming over real HTTP, the history.
 * The real AI SDK adapter over HTTP against the OpenAI-compatible test server, a real database.
 */
const h = useAiHarness();

describe('faults of the AI service', () => {
  /** After each fault, the server still answers the next request normally. */
  async function stillHealthy() {
    h.ai.enqueue({ kind: 'text', text: 'Działa dalej.' });
    expect(finalOf(parseEvents((await h.generate('teaser-generator', 'healthy')).body)).output.text).toBe(
      'Działa dalej.',
    );
  }

  it('retries a 429 after its Retry-After and then streams the answer', async () => {
    h.ai.enqueue(
      { kind: 'status', status: 429, retryAfterSeconds: 0 },
      { kind: 'text', text: 'Za drugim razem.' },
    );
    const res = await h.generate('article');
    expect(res.statusCode).toBe(200);
    expect(finalOf(parseEvents(res.body)).output.text).toBe('Za drugim razem.');
    expect(h.ai.requests).toHaveLength(2);
  });

  it('answers 502 ai_unavailable in the error shape when 500s outlast the retries', async () => {
    h.ai.enqueue(...Array(3).fill({ kind: 'status', status: 500, message: 'secret upstream detail' }));
    const res = await h.generate('article');
    expect(res.statusCode).toBe(502);
    expect(errorOf(res)).toMatchObject({
      code: 'ai_unavailable',
      message: 'The AI service is not available right now. Please try again.',
    });
    expect(res.body).not.toContain('secret upstream detail');
    expect(h.ai.requests).toHaveLength(3);

    h.ai.enqueue(...Array(3).fill({ kind: 'status', status: 503 }));
    const json = await h.main.inject({
      method: 'POST',
      url: writingToolPaths.generatePrompt,
      headers: { authorization: await h.bearer('ala') },
      payload: { userPrompt: 'x' },
    });
    expect(json.statusCode).toBe(502);
    expect(errorOf(json).code).toBe('ai_unavailable');
    await stillHealthy();
  });

  it('answers 503 ai_busy with Retry-After when the service keeps answering 429', async () => {
    h.ai.enqueue(...Array(3).fill({ kind: 'status', status: 429, retryAfterSeconds: 0 }));
    const res = await h.generate('paid-ads');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('10');
    expect(errorOf(res)).toMatchObject({
      code: 'ai_busy',
      message: 'The AI service is busy right now. Please try again in a moment.',
    });
    await stillHealthy();
  });

  it("passes on a busy service's own wait (503 with Retry-After) as ai_busy", async () => {
    h.ai.enqueue(
      { kind: 'status', status: 503, retryAfterSeconds: 0 },
      { kind: 'status', status: 503, retryAfterSeconds: 0 },
      { kind: 'status', status: 503, retryAfterSeconds: 7 },
    );
    const res = await h.generate('teaser-generator');
    expect(res.statusCode).toBe(503);
    expect(errorOf(res).code).toBe('ai_busy');
    expect(res.headers['retry-after']).toBe('7');
    await stillHealthy();
  });

  it('answers 504 when the service hangs past the timeout, and sends an error event when it stalls mid-stream', async () => {
    const impatient = await h.app({ timeoutMs: 300 });
    h.ai.enqueue({ kind: 'hang' });
    const res = await h.generate('article', 'ala', sampleInputs.article, impatient);
    expect(res.statusCode).toBe(504);
    expect(errorOf(res)).toMatchObject({
      code: 'ai_timeout',
      message: 'The AI service did not answer in time. Please try again.',
    });

    h.ai.enqueue({ kind: 'stall', text: 'Zaczynam i nagle cisza.', afterTokens: 2 });
    const stalled = await h.generate('article', 'ala', sampleInputs.article, impatient);
    expect(stalled.statusCode).toBe(200);
    const events = parseEvents(stalled.body);
    expect(streamedText(events)).toBe('Zaczynam i ');
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: { code: 'ai_timeout', message: 'The AI service did not answer in time. Please try again.' },
    });
    await stillHealthy();
  });

  it('sends an error event, and no final, when the service drops the connection mid-stream', async () => {
    h.ai.enqueue({ kind: 'disconnect', text: 'Jeden dwa trzy cztery pięć.', afterTokens: 3 });
    const res = await h.generate('article', 'dropped');
    expect(res.statusCode).toBe(200);
    const events = parseEvents(res.body);
    expect(streamedText(events)).toBe('Jeden dwa trzy ');
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'ai_unavailable' } });
    expect(events.some((e) => e.type === 'final')).toBe(false);
    const [record] = await h.history('article', 'dropped');
    expect(record).toMatchObject({ outcome: 'failed', output: null });
    await stillHealthy();
  });

  it('sends a final with empty text when the model says nothing (the page shows its empty-result text)', async () => {
    h.ai.enqueue({ kind: 'text', text: '' });
    const events = parseEvents((await h.generate('teaser-generator', 'quiet')).body);
    expect(events).toEqual([
      {
        type: 'final',
        generationId: expect.any(String),
        output: { text: '', shortened: false, truncated: false },
      },
    ]);
    expect((await h.history('teaser-generator', 'quiet'))[0]?.outcome).toBe('failed');
  });
});

describe('streaming over real HTTP', () => {
  let origin: string;
  beforeAll(async () => {
    const listening = await h.app();
    origin = await listening.listen({ port: 0, host: '127.0.0.1' });
  });

  async function post(user: string, signal?: AbortSignal) {
    return fetch(`${origin}${writingToolPaths.generate('article')}`, {
      method: 'POST',
      headers: { authorization: await h.bearer(user), 'content-type': 'application/json' },
      body: JSON.stringify(sampleInputs.article),
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
    await expect.poll(async () => (await h.history('article', 'leaver'))[0]?.outcome).toBe('cancelled');
    // The user's slot is free again and the server healthy.
    h.ai.enqueue({ kind: 'text', text: 'Dalej.' });
    const next = await post('leaver');
    expect(parseEvents(await next.text()).at(-1)).toMatchObject({
      type: 'final',
      output: { text: 'Dalej.' },
    });
  });
});

describe('history', () => {
  it("shows each user their own last 20 of a tool, newest first, and never someone else's", async () => {
    h.ai.enqueue(
      { kind: 'text', text: 'Ola pierwszy.' },
      { kind: 'text', text: 'Ola drugi.' },
      { kind: 'text', text: 'Ela.' },
    );
    await h.generate('article', 'ola');
    await h.generate('article', 'ola', { content: 'Inna treść.', task: 'Inne zadanie.' });
    await h.generate('article', 'ela');
    await h.generate('teaser-generator', 'ola');

    const ola = await h.history('article', 'ola');
    expect(ola.map((i) => i.output?.text)).toEqual(['Ola drugi.', 'Ola pierwszy.']);
    expect(ola[0]).toMatchObject({
      generator: 'article',
      input: { content: 'Inna treść.', task: 'Inne zadanie.' },
      outcome: 'succeeded',
    });
    expect((await h.history('article', 'ela')).map((i) => i.output?.text)).toEqual(['Ela.']);
    expect(await h.history('article', 'nobody')).toEqual([]);

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
    const last = await h.history('article', 'ola');
    expect(last).toHaveLength(20);
    expect(last.slice(0, 2).map((i) => i.output?.text)).toEqual(['Ola drugi.', 'Ola pierwszy.']);
    expect(last[2]?.output?.text).toBe('Stary 24.');
  });
});

describe('history and the style check', () => {
  it('gives each entry the style check stored with it, and lists an entry whose stored check no longer reads without one', async () => {
    h.ai.enqueue({ kind: 'text', text: 'To jest SUPER oferta!! Naprawdę!' });
    const res = await h.generate('article', 'stylish');
    const final = finalOf(parseEvents(res.body));
    expect(final.style?.findings.length).toBeGreaterThan(0);

    const [entry] = await h.history('article', 'stylish');
    expect(entry?.style).toEqual(final.style);

    // A row from before the check, and one whose stored check is of an older shape.
    const [user] = await h.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.subject, 'stylish'));
    await h.database.db.insert(generationsTable).values(
      [null, { score: 90, findings: 'nie lista' }].map((style, i) => ({
        userId: user!.id,
        generator: 'article',
        input: { content: 'c', task: 't' },
        output: { text: `Stary ${i}.`, shortened: false, truncated: false },
        latencyMs: 1,
        outcome: 'succeeded' as const,
        style,
        createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)),
      })),
    );
    const items = await h.history('article', 'stylish');
    expect(items.map((i) => [i.output?.text, 'style' in i])).toEqual([
      ['Stary 1.', false],
      ['Stary 0.', false],
      ['To jest SUPER oferta!! Naprawdę!', true],
    ]);
  });
});
