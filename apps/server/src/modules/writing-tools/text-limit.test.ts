import { describe, expect, it } from 'vitest';
import { countCharacters } from '@gem/contracts/text-rules';
import { cutToLimit } from './text-limit';

const family = '👨‍👩‍👧‍👦'; // four people joined by zero-width joiners: 7 code points, 11 UTF-16 units
const flag = '🇵🇱'; // two regional indicators
const thumbs = '👍🏽'; // emoji with a skin-tone modifier
const combining = 'e\u0301'; // e + combining acute accent

describe('cutToLimit', () => {
  it('leaves text within the limit alone (exactly the limit included), trailing space trimmed', () => {
    const exactly600 = `${'Zdanie ma sens. '.repeat(36)}Koniec tu.`.padEnd(600, '!');
    expect(countCharacters(exactly600)).toBe(600);
    expect(cutToLimit(exactly600, 600)).toEqual({ text: exactly600, cutAt: 'none' });
    expect(cutToLimit(`${exactly600}   \n`, 600)).toEqual({ text: exactly600, cutAt: 'none' });
    // 600 emoji are 600 characters, though far more UTF-16 units.
    const emoji600 = family.repeat(600);
    expect(cutToLimit(emoji600, 600).cutAt).toBe('none');
    expect(cutToLimit(`${emoji600}${family}`, 600)).toEqual({
      text: `${family.repeat(599)}…`,
      cutAt: 'character',
    });
  });

  it('cuts one over the limit at the last sentence end', () => {
    const text = `${'Ala ma kota. '.repeat(46)}Ala ma psa!!`; // 46 × 13 + 12 = 610
    expect(countCharacters(text)).toBe(610);
    const cut = cutToLimit(text, 600);
    expect(cut.cutAt).toBe('sentence');
    expect(cut.text).toBe('Ala ma kota. '.repeat(46).trimEnd());
    expect(countCharacters(cut.text)).toBe(597);
  });

  it('ends sentences at ! ? … and after closing quotes or brackets', () => {
    expect(cutToLimit('Czy to działa? Tak, działa bardzo dobrze.', 20)).toEqual({
      text: 'Czy to działa?',
      cutAt: 'sentence',
    });
    expect(cutToLimit('Hura! Wygraliśmy nagrodę roku.', 10).text).toBe('Hura!');
    expect(cutToLimit('Czekaj… Zaraz zobaczysz wynik.', 12).text).toBe('Czekaj…');
    expect(cutToLimit('Powiedział: „Tak.” Potem wyszedł z sali.', 25).text).toBe('Powiedział: „Tak.”');
    expect(cutToLimit('Jest lepiej (i taniej). Sprawdź sam dziś.', 30).text).toBe('Jest lepiej (i taniej).');
    expect(cutToLimit('**Nowość.** Zobacz nasze najnowsze wydanie.', 20).text).toBe('**Nowość.**');
  });

  it('does not take a full stop inside a number or a word for a sentence end', () => {
    const cut = cutToLimit('Wzrost o 3.5 proc. r/r w regionie. Dalej tekst ciągnie się.', 12);
    // "3.5" is not a sentence end, and neither is "proc." (cut would be past the limit anyway).
    expect(cut.cutAt).toBe('word');
    expect(cut.text).toBe('Wzrost o…');
  });

  it('treats a line break (the end of a heading, paragraph or list item) as a sentence end', () => {
    const text = '## Nagłówek\n\n- pierwszy punkt\n- drugi punkt bez kropki który jest długi';
    expect(cutToLimit(text, 40)).toEqual({ text: '## Nagłówek\n\n- pierwszy punkt', cutAt: 'sentence' });
  });

  it('cuts at the last word boundary, with an ellipsis, when no sentence ends in time', () => {
    const text = 'Bardzo długie zdanie bez żadnej kropki, które ciągnie się i ciągnie';
    const cut = cutToLimit(text, 40);
    expect(cut).toEqual({ text: 'Bardzo długie zdanie bez żadnej kropki…', cutAt: 'word' });
    expect(countCharacters(cut.text)).toBeLessThanOrEqual(40);
    // A trailing comma or dash is dropped before the ellipsis.
    expect(cutToLimit('Jeden, dwa, trzy, cztery', 12).text).toBe('Jeden, dwa…');
  });

  it('cuts inside a word when there is no boundary at all', () => {
    const cut = cutToLimit('Konstantynopolitańczykowianeczka', 10);
    expect(cut).toEqual({ text: 'Konstanty…', cutAt: 'character' });
    expect(countCharacters(cut.text)).toBe(10);
  });

  it('never splits an emoji, a ZWJ sequence, a flag or a combining accent', () => {
    const words = Array.from(
      { length: 300 },
      (_, i) => [family, flag, thumbs, `caf${combining}`][i % 4],
    ).join(' ');
    const cut = cutToLimit(words, 600);
    expect(cut.cutAt).toBe('word');
    expect(countCharacters(cut.text)).toBeLessThanOrEqual(600);
    expect(cut.text.endsWith('…')).toBe(true);
    // Every piece before the ellipsis is whole.
    for (const piece of cut.text.slice(0, -1).split(' ')) {
      expect([family, flag, thumbs, `caf${combining}`]).toContain(piece);
    }

    const noSpaces = `${family}${flag}`.repeat(400);
    const hard = cutToLimit(noSpaces, 600);
    expect(hard.cutAt).toBe('character');
    expect(countCharacters(hard.text)).toBe(600);
    expect(hard.text.startsWith(`${family}${flag}`)).toBe(true);
    expect(hard.text.slice(0, -1).endsWith(family)).toBe(true); // 599 = 300 families + 299 flags
  });

  it('counts emoji and Polish diacritics as one character each when deciding where to cut', () => {
    const sentence = 'Zażółć gęślą jaźń 🚀🇵🇱. '; // 22 characters, many more UTF-16 units
    expect(countCharacters(sentence)).toBe(22);
    const text = sentence.repeat(30); // 660
    const cut = cutToLimit(text, 600);
    expect(cut.cutAt).toBe('sentence');
    expect(cut.text).toBe(sentence.repeat(27).trimEnd()); // 27 × 22 − 1 = 593
    expect(countCharacters(cut.text)).toBe(593);
  });
});
