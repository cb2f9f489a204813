import { describe, expect, it } from 'vitest';

import { formatCount } from './format-number';

// toLocaleString(locale) formats as new Intl.NumberFormat(locale) does; one formatter per locale
// keeps the checks fast. 'en' and 'en-US' are what the messages printed before formatCount,
// en-GB what the pages print.
const locales = ['en', 'en-US', 'en-GB'] as const;
const intl = locales.map((locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }));

/** Each number whose formatCount differs from a locale's Intl text, with both texts. */
function mismatches(values: readonly number[]): string[] {
  const found: string[] = [];
  for (const value of values) {
    const text = formatCount(value);
    locales.forEach((locale, i) => {
      const expected = intl[i]!.format(value);
      if (text !== expected) found.push(`${value} (${locale}): "${text}", not "${expected}"`);
    });
  }
  return found;
}

/** Whole numbers to check: every one up to 20,000, each power of ten and its neighbours, and a spread up to 2^53. */
function wholeNumbers(): number[] {
  const values: number[] = [];
  for (let n = 1; n <= 20_000; n++) values.push(n);
  for (let p = 10; p <= 1e20; p *= 10) values.push(p - 1, p, p + 1);
  let seed = 28;
  for (let i = 0; i < 5_000; i++) {
    seed = (seed * 48_271) % 2_147_483_647; // a fixed pseudo-random sequence, the same every run
    values.push(Math.floor((seed / 2_147_483_647) * Number.MAX_SAFE_INTEGER));
  }
  values.push(Number.MAX_SAFE_INTEGER);
  return [0, ...values, ...values.map((v) => -v)];
}

describe('formatCount', () => {
  it('groups thousands with commas', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1_000)).toBe('1,000');
    expect(formatCount(4_000)).toBe('4,000');
    expect(formatCount(2_953)).toBe('2,953');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(-1_234)).toBe('-1,234');
    expect(formatCount(-123)).toBe('-123');
  });

  it("writes what toLocaleString('en') and 'en-US' wrote in the messages", () => {
    for (const value of [0, 249, 300, 1_000, 2_000, 4_000, 12_345, 1_234_567, -4_000]) {
      expect(formatCount(value)).toBe(value.toLocaleString('en'));
      expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
    }
  });

  it('writes every whole number as Intl does in en, en-US and en-GB', () => {
    expect(mismatches(wholeNumbers())).toEqual([]);
  });

  it('rounds a fraction to the nearest whole number, halves away from zero, as Intl does', () => {
    const quarters: number[] = [];
    // From ±0.5 on: Intl writes "-0" for what rounds to a negative zero, formatCount "0".
    for (let q = 2; q <= 40_000; q++) quarters.push(q / 4, -q / 4);
    expect(mismatches(quarters)).toEqual([]);
    expect(formatCount(2.5)).toBe('3');
    expect(formatCount(-2.5)).toBe('-3');
    expect(formatCount(-0)).toBe('0');
    expect(formatCount(-0.4)).toBe('0');
  });

  it('writes numbers out of a count’s reach as JavaScript does', () => {
    expect(formatCount(1e21)).toBe('1e+21');
    expect(formatCount(-1e21)).toBe('-1e+21');
    expect(formatCount(Number.NaN)).toBe('NaN');
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});
