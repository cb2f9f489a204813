import { describe, expect, it } from 'vitest';
import {
  useAiHarness,
  parseEvents,
  sampleInputs,
  systemOf,
  userOf,
  finalOf,
  polish,
} from '../../../../test/ai-harness';

/**
 * The teaser generator.
 * The real AI SDK adapter over HTTP against the OpenAI-compatible test server, a real database.
 */
const h = useAiHarness();

describe('the teaser generator', () => {
  it('writes a teaser as plain e-mail text in Polish', async () => {
    h.ai.enqueue({ kind: 'text', text: 'Przeczytaj nasz nowy raport.' });
    const output = finalOf(parseEvents((await h.generate('teaser-generator')).body)).output;
    expect(output.text).toBe('Przeczytaj nasz nowy raport.');
    const system = systemOf(h.ai.requests[0]);
    expect(system).toMatch(polish);
    expect(system).toContain('2–4 zdania');
    expect(system).toContain('bez Markdownu');
    expect(userOf(h.ai.requests[0])).toContain(sampleInputs['teaser-generator'].content);
  });
});
