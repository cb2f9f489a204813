import { describe, expect, it } from 'vitest';
import { useAiHarness, sampleInputs, systemOf, userOf, polish } from '../../../../test/ai-harness';

/**
 * The social post generator.
 * The real AI SDK adapter over HTTP against the OpenAI-compatible test server, a real database.
 */
const h = useAiHarness();

describe('the social post generator', () => {
  it('write the post as the CEO within the chosen word limit, from summary, content and description', async () => {
    await h.generate('social-media-post');
    await h.generate('social-media-post', 'ala', { ...sampleInputs['social-media-post'], format: 300 });
    const [short, long] = h.ai.requests;
    for (const r of [short, long]) {
      expect(systemOf(r)).toMatch(polish);
      expect(systemOf(r)).toContain('prezesa zarządu (CEO)');
      expect(userOf(r)).toContain(sampleInputs['social-media-post'].summary);
      expect(userOf(r)).toContain(sampleInputs['social-media-post'].content);
      expect(userOf(r)).toContain(sampleInputs['social-media-post'].description);
    }
    expect(systemOf(short)).toContain('najwyżej 200 słów');
    expect(systemOf(long)).toContain('najwyżej 300 słów');
    const bad = await h.generate('social-media-post', 'ala', {
      ...sampleInputs['social-media-post'],
      format: 250,
    });
    expect(bad.statusCode).toBe(400);
  });
});
