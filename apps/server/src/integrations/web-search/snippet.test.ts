import { describe, expect, it } from 'vitest';
import { parseWebQuery, webQueryMarker } from '../../lib/search-text';
import { buildSnippet } from './snippet';

const marks = (query: string) => webQueryMarker(parseWebQuery(query));

describe('buildSnippet', () => {
  it('marks every form of a word, whatever its case and accents', () => {
    expect(buildSnippet(['Sklepy ŻABKA i Żabka Nano.'], marks('zabka'))).toEqual([
      { text: 'Sklepy ', match: false },
      { text: 'ŻABKA', match: true },
      { text: ' i ', match: false },
      { text: 'Żabka', match: true },
      { text: ' Nano.', match: false },
    ]);
  });

  it('finds a word far into the main text when the description lacks it', () => {
    const body = `${'Słowo '.repeat(300)}o rynku w Łodzi i na ﬁrmach.`;
    expect(buildSnippet(['Opis bez tego słowa.', body], marks('rynku'))).toEqual([
      { text: `…${'Słowo '.repeat(9)}o `, match: false },
      { text: 'rynku', match: true },
      { text: ' w Łodzi i na ﬁrmach.', match: false },
    ]);
  });

  it('keeps every index of the text: emoji, half a surrogate pair, numerals', () => {
    expect(buildSnippet(['😀 \ud800 Zażółć gęślą jaźń, Ⅻ wiek.'], marks('gesla'))).toEqual([
      { text: '😀 \ud800 Zażółć ', match: false },
      { text: 'gęślą', match: true },
      { text: ' jaźń, Ⅻ wiek.', match: false },
    ]);
  });

  it('starts the first text with words when nothing is marked', () => {
    expect(buildSnippet(['', 'Nic tu nie ma.'], marks('rynek'))).toEqual([
      { text: 'Nic tu nie ma.', match: false },
    ]);
  });
});
