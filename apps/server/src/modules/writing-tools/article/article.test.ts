import { countCharacters, INPUT_CHARACTER_LIMIT, OUTPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  useAiHarness,
  parseEvents,
  streamedText,
  sampleInputs,
  systemOf,
  userOf,
  finalOf,
  errorOf,
  polish,
  sentence,
} from '../../../../test/ai-harness';
import { generations as generationsTable } from '../../../db/schema/index';

/**
 * The article generator: its Polish prompt, the 600-character limit enforced, its input rules.
 * The real AI SDK adapter over HTTP against the OpenAI-compatible test server, a real database.
 */
const h = useAiHarness();

describe('the article generator', () => {
  it('streams the answer as NDJSON, then a final that replaces it, and records the generation', async () => {
    h.ai.enqueue({ kind: 'text', text: 'Krótki artykuł o GEM. Pisze się szybciej.' });
    const res = await h.generate('article');
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

    // The prompt is built on the server, in Polish, with the 600-character rule and the sampleInputs.
    const [request] = h.ai.requests;
    expect(systemOf(request)).toMatch(polish);
    expect(systemOf(request)).toContain('najwyżej 600 znaków');
    expect(userOf(request)).toContain(sampleInputs.article.task);
    expect(userOf(request)).toContain(sampleInputs.article.content);

    const [row] = await h.database.db
      .select()
      .from(generationsTable)
      .where(eq(generationsTable.id, final.generationId));
    expect(row).toMatchObject({
      generator: 'article',
      input: sampleInputs.article,
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
    const events = parseEvents((await h.generate('article')).body);
    const restartAt = events.findIndex((e) => e.type === 'restart');
    expect(restartAt).toBeGreaterThan(0);
    expect(events.slice(restartAt + 1).some((e) => e.type === 'delta')).toBe(true);
    expect(streamedText(events)).toBe(short);
    expect(finalOf(events).output).toEqual({ text: short, shortened: true, truncated: false });

    // The follow-up carries the first answer as GEM read it and asks, in Polish, for at most 600
    // characters, in words that are grammatical for every number.
    expect(h.ai.requests).toHaveLength(2);
    const followUp = h.ai.requests[1]?.body.messages ?? [];
    expect(followUp.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(followUp[2]?.content).toBe(long.trim());
    expect(followUp[3]?.content).toContain(`liczba znaków – ${countCharacters(long.trim())}, limit – 600`);
    expect(followUp[3]?.content).toContain('najwyżej 600 znaków');
  });

  it('cuts at the last sentence end that fits when the shorter answer is still over', async () => {
    const long = Array.from({ length: 20 }, (_, i) => sentence(i)).join('');
    h.ai.enqueue({ kind: 'text', text: long }, { kind: 'text', text: `🚀 ${long}` });
    const output = finalOf(parseEvents((await h.generate('article')).body)).output;
    expect(output).toMatchObject({ shortened: true, truncated: true });
    expect(countCharacters(output.text)).toBeLessThanOrEqual(OUTPUT_CHARACTER_LIMIT);
    expect(countCharacters(output.text)).toBeGreaterThan(OUTPUT_CHARACTER_LIMIT - 45);
    expect(output.text.startsWith('🚀 To jest zdanie numer 0')).toBe(true);
    expect(output.text.endsWith('ma sens.')).toBe(true);
  });

  it('cuts the first answer when the request to shorten fails', async () => {
    const long = Array.from({ length: 20 }, (_, i) => sentence(i)).join('');
    h.ai.enqueue({ kind: 'text', text: long }, ...Array(3).fill({ kind: 'status', status: 500 }));
    const output = finalOf(parseEvents((await h.generate('article')).body)).output;
    expect(output).toMatchObject({ shortened: true, truncated: true });
    expect(output.text.startsWith('To jest zdanie numer 0')).toBe(true);
    expect(countCharacters(output.text)).toBeLessThanOrEqual(OUTPUT_CHARACTER_LIMIT);
  });

  it('refuses empty fields and content over the size limit with a clear message, before any AI call', async () => {
    const empty = await h.generate('article', 'ala', { content: '   ', task: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).issues).toEqual([{ path: 'body.content', message: 'The content is empty.' }]);

    const huge = await h.generate('article', 'ala', {
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
