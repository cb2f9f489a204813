import { describe, expect, it } from 'vitest';
import { charactersRead } from '../../../../test/text-work';
import { NO_COPY, parseAdAnswer } from './paid-ads.tool';

/**
 * The paid-ads answer parser on model output, which GEM does not control: every heading form
 * models write for the copy, an analysis without a copy heading (asked for again), variants. It
 * reads the answer a line at a time with anchored patterns, so its work is linear in the length:
 * counted, not timed (test/text-work.ts); the times are measured in bench/hostile-text.mjs.
 */

const split = (answer: string) => {
  const parsed = parseAdAnswer(answer);
  return {
    copy: parsed.limited,
    analysis: parsed.output(parsed.limited).analysis ?? '',
    problem: parsed.problem,
  };
};

describe('parseAdAnswer', () => {
  it.each([
    ['## Tekst reklamy', 'Sprawdź raport 📊!'],
    ['##Tekst reklamy', 'Sprawdź raport 📊!'],
    ['  ### Tekst reklamy  ', 'Sprawdź raport 📊!'],
    ['**Tekst reklamy:** Kup teraz!', 'Kup teraz!\n\nSprawdź raport 📊!'],
    ['**Tekst reklamy**: Kup teraz!', 'Kup teraz!\n\nSprawdź raport 📊!'],
    ['__Tekst reklamy__', 'Sprawdź raport 📊!'],
    ['2. Tekst reklamy: Kup teraz!', 'Kup teraz!\n\nSprawdź raport 📊!'],
    ['2) **Tekst reklamy:**', 'Sprawdź raport 📊!'],
    ['## 2. Treść reklamy', 'Sprawdź raport 📊!'],
    ['TEKST REKLAMOWY:', 'Sprawdź raport 📊!'],
    ['Copy reklamowe:   **  Kup teraz!', 'Kup teraz!\n\nSprawdź raport 📊!'],
    ['## Tekst reklamy (600 znaków)', 'Sprawdź raport 📊!'],
    ['### 2. Tekst reklamy (LinkedIn, 356 znaków)', 'Sprawdź raport 📊!'],
    ['## Tekst reklamy – wersja na LinkedIn', 'Sprawdź raport 📊!'],
    ['## 📣 Tekst reklamy', 'Sprawdź raport 📊!'],
    ['**Ad Copy**', 'Sprawdź raport 📊!'],
    ['### Ad copy:', 'Sprawdź raport 📊!'],
    ['**Reklama:**', 'Sprawdź raport 📊!'],
  ])('finds the copy under "%s"', (heading, copy) => {
    for (const analysisHeading of [
      '## Analiza',
      '**Analiza:**',
      '### 1. Analiza',
      '## 🔍 Analiza',
      '**Analysis**',
    ]) {
      const answer = `${analysisHeading}\n- Grupa docelowa: CFO.\n\n${heading}\n\nSprawdź raport 📊!\n`;
      expect(split(answer), answer).toEqual({ copy, analysis: '- Grupa docelowa: CFO.', problem: undefined });
    }
  });

  it('keeps a line that only starts with a heading’s words as text', () => {
    for (const line of [
      'Reklama powinna być krótka.',
      'Copy that, over.',
      'Tekst reklamy powinien mieć CTA.',
      'Analizator rynku.',
    ]) {
      expect(split(`${line}\n\nKup teraz!`)).toEqual({
        copy: `${line}\n\nKup teraz!`,
        analysis: '',
        problem: undefined,
      });
    }
  });

  it('keeps the analysis and the copy apart', () => {
    const parsed = parseAdAnswer('## Analiza\n\n- CFO\n\n**Tekst reklamy:** Kup teraz 🚀\nDruga linia.');
    expect(parsed.limited).toBe('Kup teraz 🚀\nDruga linia.');
    expect(parsed.output('Kup')).toEqual({
      text: '## Analiza\n\n- CFO\n\n## Tekst reklamy\n\nKup',
      analysis: '- CFO',
      copy: 'Kup',
    });
  });

  it('asks again for an analysis without a copy heading instead of counting all of it as copy', () => {
    const answer = '## Analiza\n\n- CFO średnich firm.\n\nRaport ESG w połowę czasu? Zapisz się na webinar.';
    expect(split(answer).problem).toBe(NO_COPY);
  });

  it('takes an answer without headings as all copy', () => {
    expect(split('Raport ESG w połowę czasu? Zapisz się.')).toEqual({
      copy: 'Raport ESG w połowę czasu? Zapisz się.',
      analysis: '',
      problem: undefined,
    });
  });

  it('takes the copy out of the quotation marks a model put around it', () => {
    expect(split('## Tekst reklamy\n\n„Raport ESG w połowę czasu? Zapisz się.”').copy).toBe(
      'Raport ESG w połowę czasu? Zapisz się.',
    );
  });

  it('keeps the first of several variants, and says so', () => {
    const parsed = parseAdAnswer(
      '## Tekst reklamy\n\nWariant 1: Pierwsza.\n\nWariant 2: Druga.\n\nWariant 3: Trzecia.',
    );
    expect(parsed.limited).toBe('Pierwsza.');
    expect(parsed.output(parsed.limited).notes).toEqual([
      'The AI wrote 3 variants of the ad copy; the first is shown.',
    ]);
  });

  it('reads a crafted answer of long runs of blanks around heading marks whole, with work linear in its length', () => {
    // Blanks where a heading's marks may be, then blanks after a heading's words: both were
    // quadratic in the copy heading's pattern, the first also in the analysis heading's.
    const crafted = (n: number) =>
      `${' \t'.repeat(n / 2)}x\n## Tekst reklamy${' '.repeat(n)}\n## Tekst reklamy\nKup teraz.`;
    expect(parseAdAnswer(crafted(60_000)).limited).toBe('## Tekst reklamy\nKup teraz.');
    // Ten times the text: about ten times the characters read when linear, a hundred when quadratic.
    const once = charactersRead(() => parseAdAnswer(crafted(6_000)));
    expect(once).toBeGreaterThanOrEqual(6_000);
    expect(charactersRead(() => parseAdAnswer(crafted(60_000)))).toBeLessThan(12 * once);
  });
});
