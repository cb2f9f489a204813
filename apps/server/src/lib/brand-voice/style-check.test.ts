import { countCharacters } from '@gem/contracts/text-rules';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyAll, applyFix } from '@gem/contracts/brand-voice-apply';
import { loadPolishDictionary, type PolishDictionary } from './inflection-core';
import {
  checkStyle,
  compileStyleRules,
  SCORE_WEIGHTS,
  StyleCheckInputError,
  type StyleFinding,
  type StyleRule,
  type StyleRules,
} from './style-check';
import { TermLimitError } from './term-limits';

// The check runs on forms the real dictionary gives (in-process here; the server uses the worker).
let dictionary: PolishDictionary;
beforeAll(async () => {
  dictionary = await loadPolishDictionary();
}, 120_000);

const forms = (term: string) => dictionary.expandTerm(term).words;
const banned = (term: string, replacement?: string) => ({
  term,
  forms: forms(term),
  reason: 'Sounds cheap.',
  ...(replacement ? { replacement } : {}),
});
const only = (rule: StyleRule, text: string, rules: StyleRules) =>
  checkStyle(text, rules).findings.filter((finding) => finding.rule === rule);
const texts = (found: StyleFinding[]) => found.map((finding) => finding.text);

describe('style check: banned terms', () => {
  it('catches every inflected form of a banned word, and not a near word', () => {
    const rules = { banned: [banned('tani')] };
    const text = 'Tania usługa, taniego doradcy i tanich rozwiązań; taniec i Tańca nie, nietani też nie.';
    const found = only('banned', text, rules);
    expect(texts(found)).toEqual(['Tania', 'taniego', 'tanich']);
    expect(found[0]).toMatchObject({ start: 0, end: 5, reason: 'Sounds cheap.' });
    expect(found[0]?.message).toBe('„Tania” is a banned term.');
  });

  it('catches a phrase in its inflected forms, and not its words apart', () => {
    const rules = { banned: [banned('rozwiązanie szyte na miarę')] };
    const text =
      'Oferujemy rozwiązanie szyte na miarę. Nie ma rozwiązania szytego na miarę bez rozmowy, ' +
      'a Rozwiązaniem  szytym\nna miarę jest dialog. Rozwiązanie jest szyte na miarę. Rozwiązanie, szyte na miarę.';
    expect(texts(only('banned', text, rules))).toEqual([
      'rozwiązanie szyte na miarę',
      'rozwiązania szytego na miarę',
      'Rozwiązaniem  szytym\nna miarę',
    ]);
  });

  it('matches case-insensitively (Polish capitals too) and with diacritics as written', () => {
    const rules = { banned: [banned('tani')] };
    expect(texts(only('banned', 'TANIEGO! TANIĄ ofertą. Tańia to literówka, tanią.', rules))).toEqual([
      'TANIEGO',
      'TANIĄ',
      'tanią',
    ]);
    const zolty = { banned: [banned('żółty')] };
    expect(texts(only('banned', 'ŻÓŁTEGO, Żółta, zolty, zółty', zolty))).toEqual(['ŻÓŁTEGO', 'Żółta']);
  });

  it('takes a term that looks like a regular expression literally', () => {
    const rules = {
      banned: [
        { term: 'a.*b', reason: 'r' },
        { term: '(x)', reason: 'r' },
        { term: '[a-z]+', reason: 'r' },
        { term: 'e-commerce', reason: 'r' },
      ],
    };
    const text = 'ab a.*b axxb (x) x [a-z]+ abc E-commerce ecommerce xa.*bx';
    expect(texts(only('banned', text, rules))).toEqual(['a.*b', '(x)', '[a-z]+', 'E-commerce']);
  });

  it('offers the replacement in the found word’s case, safe only for the term’s own form', () => {
    const rules = { banned: [banned('tani', 'przystępny')] };
    const found = only('banned', 'Tani, tani, TANI i tania.', rules);
    expect(found.map((finding) => finding.fix)).toEqual([
      { replacement: 'Przystępny', safe: true },
      { replacement: 'przystępny', safe: true },
      // Capitals are themselves against the house style: the rule's spelling, not shouting.
      { replacement: 'przystępny', safe: true },
      { replacement: 'przystępny', safe: false },
    ]);
  });
});

describe('style check: preferred terms and names', () => {
  it('suggests the preferred term for any form of the word it replaces', () => {
    const rules: StyleRules = {
      preferred: [{ term: 'klient', replaces: [{ word: 'petent', forms: forms('petent') }] }],
    };
    const found = only('preferred', 'Petent przyszedł. Obsługujemy petentów.', rules);
    expect(texts(found)).toEqual(['Petent', 'petentów']);
    expect(found[0]?.fix).toEqual({ replacement: 'Klient', safe: true });
    expect(found[1]?.fix).toEqual({ replacement: 'klient', safe: false });
    expect(found[0]?.message).toBe('Write „klient” rather than „Petent”.');
  });

  it('finds a name written in another case, without diacritics, spaced or joined differently', () => {
    const rules = { names: ['Deal Advisory', 'Doradztwo Podatkowe'] };
    const text =
      'Deal Advisory i Deal advisory, deal-advisory, DealAdvisory, Deal  Advisory; ' +
      'Doradztwo Podatkowe, doradztwo podatkowe, Doradztwo Podatkowé, Doradztwo Podatkowych.';
    const found = only('name', text, rules);
    expect(texts(found)).toEqual([
      'Deal advisory',
      'deal-advisory',
      'DealAdvisory',
      'Deal  Advisory',
      'doradztwo podatkowe',
      'Doradztwo Podatkowé',
    ]);
    expect(found.every((finding) => finding.fix?.safe)).toBe(true);
    expect(found[0]?.fix?.replacement).toBe('Deal Advisory');
  });

  it('finds a name without Polish letters ("ł" too)', () => {
    const found = only('name', 'Usługi Ksiegowe i Uslugi Księgowe', { names: ['Usługi Księgowe'] });
    expect(texts(found)).toEqual(['Usługi Ksiegowe', 'Uslugi Księgowe']);
  });
});

describe('style check: disclaimers and limits', () => {
  const disclaimer = 'Niniejszy materiał nie stanowi porady prawnej — skonsultuj się z „doradcą”.';

  it('finds a disclaimer in another case, spacing, quotation marks or dashes', () => {
    const rules = { disclaimers: [disclaimer] };
    const variant =
      'Tekst.\n\nNINIEJSZY  materiał nie\nstanowi porady prawnej - skonsultuj się z "doradcą" .';
    expect(only('disclaimer', variant, rules)).toEqual([]);
  });

  it('reports a missing disclaimer at the end, with a safe fix that adds it', () => {
    const text = 'Tekst bez zastrzeżenia.';
    const [found] = only('disclaimer', text, { disclaimers: [disclaimer] });
    expect(found).toMatchObject({ start: text.length, end: text.length, text: '' });
    expect(applyFix(text, found as StyleFinding)).toBe(`${text}\n\n${disclaimer}`);
  });

  it('marks the text past the channel’s limits, counted in graphemes and words', () => {
    const text = '👍🏽'.repeat(5) + 'ąę';
    const [characters] = only('limit', text, { limits: { characters: 5 } });
    expect(characters).toMatchObject({ start: '👍🏽'.repeat(5).length, end: text.length, text: 'ąę' });
    expect(characters?.message).toBe('The text has 7 characters; this channel allows 5.');
    const [words] = only('limit', 'jeden dwa #tag trzy cztery', { limits: { words: 3 } });
    expect(words?.text).toBe('cztery');
    expect(only('limit', 'jeden dwa', { limits: { characters: 9, words: 2 } })).toEqual([]);
    // A long text is segmented in pieces: the count and the place are still countCharacters'.
    const long = 'Zażółć gęślą jaźń 👍🏽, e\u0301 i 🇵🇱!\r\n'.repeat(400);
    const limit = countCharacters(long) - 7;
    const [past] = only('limit', long, { limits: { characters: limit } });
    expect(past?.message).toBe(`The text has ${limit + 7} characters; this channel allows ${limit}.`);
    expect(countCharacters(long.slice(0, past?.start))).toBe(limit);
  });
});

describe('style check: typography', () => {
  it('finds straight and English quotation marks, fixing them safely when paired', () => {
    const text = 'Mówił "tak" i “nie”, a „dobrze” też; 12" monitor.';
    const found = only('quotes', text, {});
    expect(found.map((finding) => [finding.text, finding.fix])).toEqual([
      ['"', { replacement: '„', safe: true }],
      ['"', { replacement: '”', safe: true }],
      ['“', { replacement: '„', safe: true }],
      ['"', { replacement: '„', safe: false }],
    ]);
    expect(applyAll(text, found)).toBe('Mówił „tak” i „nie”, a „dobrze” też; 12" monitor.');
  });

  it('finds words in capitals, except acronyms and Roman numerals', () => {
    const rules = { typography: { acronyms: ['PwC', 'MSSF'] } };
    const found = only('all-caps', 'SUPER oferta! AI, ESG i MSSF w XXI wieku. ŚWIETNIE. A i W.', rules);
    expect(texts(found)).toEqual(['SUPER', 'ŚWIETNIE']);
    expect(found.map((finding) => finding.fix)).toEqual([
      { replacement: 'Super', safe: false },
      { replacement: 'Świetnie', safe: false },
    ]);
  });

  it('takes the capitals of a service-line name as its spelling, not as shouting', () => {
    const rules = { names: ['KPMG Law', 'PwC Studio'] };
    expect(texts(only('all-caps', 'Zespół KPMG Law oraz PwC Studio. KRZYK tutaj.', rules))).toEqual([
      'KRZYK',
    ]);
    expect(texts(only('all-caps', 'Zespół KPMG Law.', {}))).toEqual(['KPMG']);
  });

  it('allows one exclamation mark', () => {
    const text = 'Brawo! Świetnie!! Dalej!';
    const found = only('exclamation', text, {});
    expect(found.map((finding) => [finding.start, finding.fix?.replacement])).toEqual([
      [15, '.'],
      [16, ''],
      [23, '.'],
    ]);
    expect(applyAll(text, found)).toBe('Brawo! Świetnie. Dalej.');
  });
});

describe('style check: score, counts and bad input', () => {
  it('counts findings per rule and takes each one’s weight off the score', () => {
    const result = checkStyle('TANI "produkt"!!', { banned: [banned('tani')] });
    expect(result.counts).toEqual({
      banned: 1,
      preferred: 0,
      name: 0,
      disclaimer: 0,
      limit: 0,
      quotes: 2,
      'all-caps': 1,
      exclamation: 1,
    });
    expect(result.score).toBe(
      100 -
        SCORE_WEIGHTS.banned -
        2 * SCORE_WEIGHTS.quotes -
        SCORE_WEIGHTS['all-caps'] -
        SCORE_WEIGHTS.exclamation,
    );
    expect(checkStyle('Dobry tekst.', {}).score).toBe(100);
    expect(checkStyle('', {}).findings).toEqual([]);
  });

  it('refuses bad terms and text with words', () => {
    const refused = (rules: StyleRules) => {
      try {
        compileStyleRules(rules);
      } catch (err) {
        return err as Error;
      }
      throw new Error('not refused');
    };
    expect(refused({ banned: [{ term: '', reason: 'r' }] })).toBeInstanceOf(TermLimitError);
    expect(refused({ banned: [{ term: 'x'.repeat(500), reason: 'r' }] }).message).toContain(
      'longer than 100',
    );
    const many = Array.from({ length: 10_000 }, (_, i) => ({ term: `słowo${i}`, reason: 'r' }));
    expect(refused({ banned: many }).message).toContain('at most 1,000 terms');
    expect(refused({ names: ['Deal\u0000'] }).message).toContain('cannot be stored');
    expect(refused({ disclaimers: ['\ud800'] })).toBeInstanceOf(StyleCheckInputError);
    expect(() => checkStyle('tekst \ud83d', {})).toThrow(StyleCheckInputError);
    expect(() => checkStyle('a\u0000b', {})).toThrow('cannot be stored');
  });

  it('checks a compiled profile as it checks the rules themselves', () => {
    const rules = {
      banned: [banned('tani', 'przystępny')],
      names: ['Deal Advisory'],
      disclaimers: ['Uwaga.'],
    };
    const text = 'Tania oferta Deal advisory!';
    expect(checkStyle(text, compileStyleRules(rules))).toEqual(checkStyle(text, rules));
  });
});
