import { describe, expect, it } from 'vitest';
import { applyAll, applyFix, safeFixes, StaleFindingError } from '@gem/contracts/brand-voice-apply';
import { checkStyle, type StyleFinding, type StyleRules } from './style-check';

// Forms as the inflection gives them (inflection.test.ts checks the dictionary's); here the
// subject is what applying does to the text around a fix.
const rules: StyleRules = {
  banned: [
    {
      term: 'tani',
      forms: [['tani', 'tania', 'taniego', 'tanich']],
      reason: 'Sounds cheap.',
      replacement: 'przystępny',
    },
    { term: 'a.*b', reason: 'Literal.', replacement: 'ab' },
  ],
  preferred: [{ term: 'klient', replaces: [{ word: 'petent', forms: [['petent', 'petenta']] }] }],
  names: ['Deal Advisory'],
  disclaimers: ['To nie jest porada.'],
  limits: { characters: 400 },
};

const safe = (findings: StyleFinding[]) => findings.filter((finding) => finding.fix?.safe);

describe('applying fixes', () => {
  it('applies one fix, unsafe ones too, and only its span changes', () => {
    const text = 'Tania oferta: tani produkt.';
    const { findings } = checkStyle(text, rules);
    const tania = findings.find((finding) => finding.text === 'Tania');
    expect(tania?.fix).toEqual({ replacement: 'Przystępny', safe: false });
    expect(applyFix(text, tania as StyleFinding)).toBe('Przystępny oferta: tani produkt.');
  });

  it('applies every safe fix and leaves everything else as it was', () => {
    const text = 'Tani i tania "oferta" od deal advisory, a.*b!! Petent.';
    const { findings } = checkStyle(text, rules);
    expect(applyAll(text, findings)).toBe(
      'Przystępny i tania „oferta” od Deal Advisory, ab! Klient.\n\nTo nie jest porada.',
    );
    // Checked again, only what had no safe fix is left.
    const after = checkStyle(applyAll(text, findings), rules).findings;
    expect(after.map((finding) => finding.text)).toEqual(['tania']);
  });

  it('refuses a finding from another version of the text', () => {
    const { findings } = checkStyle('tani', rules);
    const [first] = findings;
    expect(() => applyFix('bardzo tani', first as StyleFinding)).toThrow(StaleFindingError);
    expect(() => applyAll('bardzo tani', findings)).toThrow(StaleFindingError);
  });

  it('never applies two overlapping fixes', () => {
    const finding = (start: number, end: number, replacement: string): StyleFinding => ({
      id: `${start}:${end}`,
      rule: 'banned',
      start,
      end,
      text: 'abcdef'.slice(start, end),
      message: '',
      reason: '',
      fix: { replacement, safe: true },
    });
    const findings = [
      finding(1, 4, 'X'),
      finding(2, 3, 'Y'),
      finding(4, 5, 'Z'),
      finding(6, 6, '!'),
      finding(6, 6, '?'),
    ];
    expect(safeFixes(findings).map((f) => f.id)).toEqual(['6:6', '4:5', '1:4']);
    expect(applyAll('abcdef', findings)).toBe('aXZf!');
  });

  it('keeps every byte outside the fixed spans, for many random texts', () => {
    // A seeded generator: the same texts every run, so a failure can be reproduced.
    let seed = 31;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [
      'tani', 'Tania', 'TANI', 'taniec', 'petent', 'Petenta', 'deal advisory', 'Deal Advisory', 'a.*b',
      '"', '“', '”', '„', '!', '!!', ' ', '  ', '\n', '\t', ',', '.', 'ż', 'ó', '👍🏽', 'e\u0301', 'x',
      'słowo', 'SUPER', 'AI', '-', '\u00a0',
    ]; // prettier-ignore
    for (let round = 0; round < 500; round += 1) {
      let text = '';
      const length = Math.floor(random() * 30);
      for (let i = 0; i < length; i += 1) text += pieces[Math.floor(random() * pieces.length)];
      const { findings } = checkStyle(text, rules);
      const applied = safeFixes(findings);
      const result = applyAll(text, findings);
      // Rebuild the result from the original text's untouched stretches and the replacements.
      let rebuilt = '';
      let at = 0;
      for (const finding of [...applied].reverse()) {
        rebuilt += text.slice(at, finding.start) + (finding.fix?.replacement ?? '');
        at = finding.end;
      }
      rebuilt += text.slice(at);
      expect(result, JSON.stringify(text)).toBe(rebuilt);
      expect(Buffer.from(result).equals(Buffer.from(rebuilt))).toBe(true);
      // Nothing unsafe was applied, and every safe fix that overlaps none was.
      expect(applied.every((finding) => finding.fix?.safe)).toBe(true);
      expect(applied.length).toBeLessThanOrEqual(safe(findings).length);
    }
  });
});
