import { writingToolPaths } from '@gem/contracts/writing-tools';
import { describe, expect, it } from 'vitest';
import { useAiHarness, errorOf } from '../../../test/ai-harness';

/**
 * The AI platform's per-user limits, seen through a writing tool's route.
 * The real AI SDK adapter over HTTP against the OpenAI-compatible test server, a real database.
 */
const h = useAiHarness();

describe('per-user limits', () => {
  it('answers 429 with Retry-After over the rate, for that user only', async () => {
    const strict = await h.app({ limits: { perMinute: 2, concurrent: 5 } });
    for (let i = 0; i < 2; i += 1)
      expect((await h.generate('teaser-generator', 'busy', undefined, strict)).statusCode).toBe(200);
    const refused = await h.generate('teaser-generator', 'busy', undefined, strict);
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
      url: writingToolPaths.generatePrompt,
      headers: { authorization: await h.bearer('busy') },
      payload: { userPrompt: 'x' },
    });
    expect(json.statusCode).toBe(429);
    expect((await h.generate('teaser-generator', 'calm', undefined, strict)).statusCode).toBe(200);
  });

  it('answers 429 over the concurrency limit, counted across server instances', async () => {
    const limits = { perMinute: 100, concurrent: 2 };
    const [one, two] = [await h.app({ limits }), await h.app({ limits })];
    h.ai.enqueue(
      { kind: 'text', text: 'wolno '.repeat(10), tokenDelayMs: 40 },
      { kind: 'text', text: 'wolno '.repeat(10), tokenDelayMs: 40 },
    );
    const running = [
      h.generate('article', 'eager', undefined, one),
      h.generate('article', 'eager', undefined, two),
    ];
    await h.ai.whenRequested(2);
    const third = await h.generate('article', 'eager', undefined, one);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('5');
    expect(errorOf(third).message).toContain('2 AI requests running');
    expect((await Promise.all(running)).map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await h.generate('article', 'eager', undefined, two)).statusCode).toBe(200);
  });
});
