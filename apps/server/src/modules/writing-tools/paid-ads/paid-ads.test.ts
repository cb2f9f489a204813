import { countCharacters, OUTPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import { describe, expect, it } from 'vitest';
import { useAiHarness, parseEvents, systemOf, userOf, finalOf, polish } from '../../../../test/ai-harness';

/**
 * The paid ads generator: the analysis and the copy, only the copy limited.
 * The real AI SDK adapter over HTTP against the OpenAI-compatible test server, a real database.
 */
const h = useAiHarness();

describe('the paid ads generator', () => {
  const analysis = `- Grupa docelowa: dyrektorzy finansowi.\n- ${'Bardzo długa analiza rynku. '.repeat(30)}`;

  it('asks for an analysis and a copy of at most 600 characters; only the copy counts', async () => {
    const copy = 'Sprawdź raport 📊 i decyduj szybciej! 👉';
    h.ai.enqueue({ kind: 'text', text: `## Analiza\n\n${analysis}\n\n## Tekst reklamy\n\n${copy}` });
    const output = finalOf(parseEvents((await h.generate('paid-ads')).body)).output;
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
    const events = parseEvents((await h.generate('paid-ads')).body);
    expect(events.some((e) => e.type === 'restart')).toBe(true);
    const output = finalOf(events).output;
    expect(output).toMatchObject({ analysis: analysis.trim(), shortened: true, truncated: true });
    expect(countCharacters(output.copy ?? '')).toBeLessThanOrEqual(OUTPUT_CHARACTER_LIMIT);
    expect(output.copy?.endsWith('warto 🚀.')).toBe(true);
    expect(output.text).toBe(`## Analiza\n\n${analysis.trim()}\n\n## Tekst reklamy\n\n${output.copy}`);
    expect(userOf(h.ai.requests[1])).toContain(
      `Tekst reklamy jest za długi (liczba znaków – ${countCharacters(longCopy.trim())}, limit – 600`,
    );
  });
});
