import { describe, expect, it } from 'vitest';
import { fold, toPrefixQuery } from './search-text';

describe('fold', () => {
  it('folds Polish and other accented letters to plain lower-case ASCII', () => {
    expect(fold('Żabka ŻABKA zabka')).toBe('zabka zabka zabka');
    expect(fold('Łódź, Gdańsk, Kraków, Częstochowa')).toBe('lodz, gdansk, krakow, czestochowa');
    expect(fold('Ørsted Straße Crème Brûlée')).toBe('orsted strasse creme brulee');
  });

  it('turns compatibility forms into their plain letters', () => {
    expect(fold('ﬁnance ①')).toBe('finance 1');
  });
});

describe('toPrefixQuery', () => {
  it('makes every word a required prefix', () => {
    expect(toPrefixQuery('Bank ESG')).toBe('bank:* & esg:*');
    expect(toPrefixQuery('  Żabka   sklepy ')).toBe('zabka:* & sklepy:*');
  });

  it('lets only letters and digits through, so typed text cannot inject tsquery syntax', () => {
    expect(toPrefixQuery("bank & !esg | (x:*) <-> 'y'")).toBe('bank:* & esg:* & x:* & y:*');
    expect(toPrefixQuery('covid-19')).toBe('covid:* & 19:*');
  });

  it('gives null when nothing searchable is left', () => {
    expect(toPrefixQuery('')).toBeNull();
    expect(toPrefixQuery(' !&|:*() ')).toBeNull();
  });

  it('keeps at most twelve terms', () => {
    const words = Array.from({ length: 20 }, (_, n) => `w${n}`);
    expect(toPrefixQuery(words.join(' '))!.split(' & ')).toHaveLength(12);
  });
});
