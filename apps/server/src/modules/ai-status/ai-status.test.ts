import { aiStatusPath, aiStatusResponseSchema } from '@gem/contracts/ai-status';
import { describe, expect, it } from 'vitest';
import { useAiHarness } from '../../../test/ai-harness';

/**
 * GET /api/ai/status with an AI service configured (without one: generate-prompt.test.ts, in
 * the writing tools; the built-in stand-in: demo-text-model.test.ts).
 */
const h = useAiHarness();

describe('AI status', () => {
  it('names the configured provider and model', async () => {
    const res = await h.main.inject({
      method: 'GET',
      url: aiStatusPath,
      headers: { authorization: await h.bearer('ala') },
    });
    expect(aiStatusResponseSchema.parse(res.json())).toEqual({
      configured: true,
      provider: 'openai-compatible',
      model: 'gem-test-model',
      demo: false,
    });
  });
});
