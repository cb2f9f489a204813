import { aiStatusPath } from '@gem/contracts/ai-status';
import { writingToolPaths, type WritingToolName } from '@gem/contracts/writing-tools';
import { describe, expect, it } from 'vitest';
import { useAiHarness, sampleInputs, systemOf, userOf, errorOf, polish } from '../../../test/ai-harness';

/**
 * The spec §7 generate-prompt call, and every writing tool's call without an AI service.
 * The real AI SDK adapter over HTTP against the OpenAI-compatible test server, a real database.
 */
const h = useAiHarness();

describe('the spec §7 generate-prompt call', () => {
  it('answers the spec §7 generate-prompt call with { prediction }, framed in Polish', async () => {
    h.ai.enqueue({ kind: 'text', text: 'Gotowa odpowiedź.' });
    const res = await h.main.inject({
      method: 'POST',
      url: writingToolPaths.generatePrompt,
      headers: { authorization: await h.bearer('ala') },
      payload: { userPrompt: 'Napisz hasło reklamowe.' },
    });
    expect(res.json()).toEqual({ prediction: 'Gotowa odpowiedź.' });
    expect(systemOf(h.ai.requests[0])).toMatch(polish);
    expect(userOf(h.ai.requests[0])).toBe('Napisz hasło reklamowe.');
  });
});

describe('without an AI service', () => {
  it('says so in the status, and every AI call answers 503 ai_not_configured, whatever the body', async () => {
    const plain = await h.app({ service: null });
    const authorization = await h.bearer('ala');
    const status = await plain.inject({
      method: 'GET',
      url: aiStatusPath,
      headers: { authorization },
    });
    expect(status.json()).toEqual({ configured: false, provider: null, model: null, demo: false });

    const calls = [
      ...(Object.keys(sampleInputs) as WritingToolName[]).map((name) => writingToolPaths.generate(name)),
      writingToolPaths.generatePrompt,
      writingToolPaths.summarizePrompt,
    ];
    for (const url of calls) {
      for (const payload of [{}, sampleInputs.article]) {
        const res = await plain.inject({ method: 'POST', url, headers: { authorization }, payload });
        expect(res.statusCode, url).toBe(503);
        expect(errorOf(res), url).toMatchObject({
          code: 'ai_not_configured',
          // Marketers see this: whom to ask, never a setting's name (those are on the admin pages).
          message: expect.stringContaining('Ask your administrator'),
        });
        expect(errorOf(res).message, url).not.toMatch(/GEM_/);
      }
    }
    expect(
      (
        await plain.inject({
          method: 'GET',
          url: writingToolPaths.history('article'),
          headers: { authorization },
        })
      ).statusCode,
    ).toBe(200);
    expect(h.ai.requests).toHaveLength(0);
  });
});
