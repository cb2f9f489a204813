import { describe, expect, it } from 'vitest';
import { countCharacters } from './text-rules';

const family = '👨‍👩‍👧‍👦'; // four people joined by zero-width joiners: 7 code points, 11 UTF-16 units
const flag = '🇵🇱'; // two regional indicators
const thumbs = '👍🏽'; // emoji with a skin-tone modifier
const combining = 'e\u0301'; // e + combining acute accent

describe('countCharacters', () => {
  it('counts what a person sees as one character', () => {
    expect(countCharacters('')).toBe(0);
    expect(countCharacters('abc')).toBe(3);
    expect(countCharacters('Zażółć gęślą jaźń')).toBe(17);
    expect(countCharacters('ŻÓŁĆ')).toBe(4);
    expect(countCharacters(family)).toBe(1);
    expect(family.length).toBe(11);
    expect(countCharacters(flag)).toBe(1);
    expect(countCharacters(thumbs)).toBe(1);
    expect(countCharacters(combining)).toBe(1);
    expect(countCharacters('🚀 Start!')).toBe(8);
    // Spaces and line breaks count too (spec: "including spaces and emoji"); CR LF is one.
    expect(countCharacters('a b\r\nc')).toBe(5);
  });
});
