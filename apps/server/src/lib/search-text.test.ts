import { describe, expect, it } from 'vitest';
import { fold, parseWebQuery, prefixStem, toPrefixQuery, webQueryMarker, webTsquery } from './search-text';

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

describe('web-style queries', () => {
  const ts = (q: string) => webTsquery(parseWebQuery(q));

  it('ANDs words as prefixes, folding accents and Polish endings', () => {
    expect(ts('Żabka sklepy')).toBe('zabk:* & sklep:*');
    expect(ts('transformacja cyfrowa')).toBe('transformacj:* & cyfr:*');
    expect(ts('dane AI 2025')).toBe('dane:* & ai:* & 2025:*');
  });

  it('reads quoted phrases, exclusions and OR', () => {
    expect(ts('"raport roczny" bank')).toBe('(raport <-> roczny:*) & bank:*');
    expect(ts('esg -greenwashing')).toBe('esg:* & !greenwashing:*');
    expect(ts('esg -"zielony ład"')).toBe('esg:* & !(zielony <-> lad:*)');
    expect(ts('podatki OR cła inflacja')).toBe('(podatk:* | cla:*) & inflacj:*');
    expect(ts('a | b')).toBe('(a:* | b:*)');
    expect(ts('"niezamknięty cudzysłów')).toBe('(niezamkniety <-> cudzyslow:*)');
    expect(ts('covid-19')).toBe('(covid <-> 19:*)');
  });

  it('treats operators without words around them as nothing', () => {
    expect(ts('OR bank OR')).toBe('bank:*');
    expect(ts('bank or esg')).toBe('bank:* & or:* & esg:*');
    expect(ts('+bank')).toBe('bank:*');
  });

  it('has nothing to search for in punctuation, operators or exclusions alone', () => {
    for (const q of ['', '  ', '!&|:*()', '"" OR -', '- -- +', "'\"<->'", '-bank -esg']) {
      expect(ts(q)).toBeNull();
    }
  });

  it('lets only [a-z0-9] words through, so typed text cannot inject tsquery syntax', () => {
    expect(ts("bank:* & !esg | (x) <-> 'y' \\\\ z:A")).toBe('bank:* & (esg:* | x:*) & y:* & (z <-> a:*)');
    expect(ts("x') || to_tsquery('y")).toBe('(x:* | (to <-> tsquery <-> y:*))');
  });

  it('keeps at most twelve words', () => {
    const words = Array.from({ length: 20 }, (_, n) => `w${n}`);
    expect(ts(words.join(' '))!.split(' & ')).toHaveLength(12);
  });

  it('strips one Polish ending when four letters remain', () => {
    expect(prefixStem('podatkowych')).toBe('podatk');
    expect(prefixStem('firmy')).toBe('firm');
    expect(prefixStem('dane')).toBe('dane');
    expect(prefixStem('q2025')).toBe('q2025');
  });

  it('marks result words the query looked for, accents and endings aside', () => {
    const marks = webQueryMarker(parseWebQuery('zabka services "raport roczny" -esg'));
    expect(['zabka', 'zabki', 'service', 'services', 'raport', 'roczny'].every(marks)).toBe(true);
    expect(['esg', 'bank', 'zab'].some(marks)).toBe(false);
  });
});
