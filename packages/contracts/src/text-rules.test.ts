import { describe, expect, it } from 'vitest';
import { countCharacters, countWords, cutAtGrapheme, isStorableText } from './text-rules';

describe('cutAtGrapheme', () => {
  it('leaves text within the limit as it is', () => {
    expect(cutAtGrapheme('abc', 3)).toBe('abc');
    expect(cutAtGrapheme('', 0)).toBe('');
  });

  it('never leaves half an emoji: the cut that would split a surrogate pair stops before it', () => {
    const text = `${'a'.repeat(3_999)}😀`;
    const cut = cutAtGrapheme(text, 4_000);
    expect(cut).toBe('a'.repeat(3_999));
    expect(isStorableText(cut)).toBe(true);
    expect(cutAtGrapheme(text, 4_001)).toBe(text);
  });

  it('keeps a flag, a family joined by zero-width joiners and a letter with its combining accent whole', () => {
    for (const cluster of ['🇵🇱', '👨‍👩‍👧‍👦', 'e\u0301', '👍🏽']) {
      const text = `ab${cluster}cd`;
      for (let max = 2; max < 2 + cluster.length; max += 1) expect(cutAtGrapheme(text, max)).toBe('ab');
      expect(cutAtGrapheme(text, 2 + cluster.length)).toBe(`ab${cluster}`);
    }
  });

  it('is within the limit in UTF-16 units, as zod counts, for every cut of a mixed text', () => {
    const text = 'Zażółć 😀 gęślą 🇵🇱 jaźń 👨‍👩‍👧 e\u0301!';
    for (let max = 0; max <= text.length; max += 1) {
      const cut = cutAtGrapheme(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(text.startsWith(cut)).toBe(true);
      expect(isStorableText(cut)).toBe(true);
      // Whole clusters only: the cut and the rest count as the text does.
      expect(countCharacters(cut) + countCharacters(text.slice(cut.length))).toBe(countCharacters(text));
    }
  });
});

describe('cutAtGrapheme on a long text', () => {
  it('gives the same cut as segmenting the whole text, where a cluster straddles the limit', () => {
    const text = `${'x'.repeat(10)}👨‍👩‍👧${'y'.repeat(10)}e\u0301${'z'.repeat(10)}🇵🇱🇩🇪`;
    const whole = new Intl.Segmenter('pl', { granularity: 'grapheme' });
    for (let max = 0; max <= text.length; max += 1) {
      let end = 0;
      for (const { index, segment } of whole.segment(text)) {
        if (index + segment.length > max) break;
        end = index + segment.length;
      }
      expect(cutAtGrapheme(text, max)).toBe(text.slice(0, end));
    }
  });
});

describe('countWords', () => {
  it('counts words with letters or digits, not hashtags, dashes or emoji', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('Raport ESG 2026 – to nie formalność! 👉')).toBe(6);
    expect(countWords('Jak Wy podchodzicie?\n\n#ESG #raportowanie')).toBe(3);
    expect(countWords('zrównoważony\trozwój\nfirm')).toBe(3);
  });
});
