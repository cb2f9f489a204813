import { writingToolPaths } from '@gem/contracts/writing-tools';
import { describe, expect, it } from 'vitest';
import { useAiHarness, parseEvents, systemOf, finalOf, polish } from '../../../../test/ai-harness';

/**
 * The summarize generator, streamed and through the spec §7 call.
 * The real AI SDK adapter over HTTP against the OpenAI-compatible test server, a real database.
 */
const h = useAiHarness();

describe('the summarize generator', () => {
  it('summarizes in Polish, streamed and through the spec §7 call, both in the history', async () => {
    h.ai.enqueue(
      { kind: 'text', text: 'Streszczenie strumieniowe.' },
      { kind: 'text', text: 'Streszczenie JSON.' },
    );
    expect(finalOf(parseEvents((await h.generate('summarize', 'summer')).body)).output.text).toBe(
      'Streszczenie strumieniowe.',
    );
    const res = await h.main.inject({
      method: 'POST',
      url: writingToolPaths.summarizePrompt,
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
    const items = await h.history('summarize', 'summer');
    expect(items.map((i) => i.output?.text)).toEqual(['Streszczenie JSON.', 'Streszczenie strumieniowe.']);
    expect(items[0]?.input).toEqual({ documentText: 'Dokument do streszczenia.' });
  });
});
