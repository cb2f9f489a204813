import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { formatAtMostOneDecimal, formatInteger, formatOneDecimal } from './format-number';

const intlInteger = new Intl.NumberFormat('en-GB');
const intlOneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const intlAtMostOneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

describe('formatInteger', () => {
  it('groups thousands with commas', () => {
    expect(formatInteger(0)).toBe('0');
    expect(formatInteger(999)).toBe('999');
    expect(formatInteger(2953)).toBe('2,953');
    expect(formatInteger(1234567)).toBe('1,234,567');
  });

  it('writes every whole number as Intl.NumberFormat does', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (value) => {
        expect(formatInteger(value)).toBe(intlInteger.format(value));
      }),
    );
  });
});

// The non-negative amounts both decimal formats are checked on.
const amounts = fc.oneof(
  fc.double({ min: 0, max: 1e9, noNaN: true }),
  // Hundredths, where halves are exact as written but not in binary.
  fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
);

describe('formatOneDecimal', () => {
  it('always shows one decimal, rounding halves up as written', () => {
    expect(formatOneDecimal(2)).toBe('2.0');
    expect(formatOneDecimal(70.55555)).toBe('70.6');
    expect(formatOneDecimal(35.55)).toBe('35.6');
    expect(formatOneDecimal(0.04)).toBe('0.0');
    expect(formatOneDecimal(9.96)).toBe('10.0');
    expect(formatOneDecimal(1234.56)).toBe('1,234.6');
  });

  it('writes non-negative numbers as Intl.NumberFormat does', () => {
    fc.assert(
      fc.property(amounts, (value) => {
        expect(formatOneDecimal(value)).toBe(intlOneDecimal.format(value));
      }),
    );
  });
});

describe('formatAtMostOneDecimal', () => {
  it('shows the decimal only when it is not zero', () => {
    expect(formatAtMostOneDecimal(2)).toBe('2');
    expect(formatAtMostOneDecimal(1.5)).toBe('1.5');
    expect(formatAtMostOneDecimal(1.04)).toBe('1');
    expect(formatAtMostOneDecimal(1023.96)).toBe('1,024');
  });

  it('writes non-negative numbers as Intl.NumberFormat does', () => {
    fc.assert(
      fc.property(amounts, (value) => {
        expect(formatAtMostOneDecimal(value)).toBe(intlAtMostOneDecimal.format(value));
      }),
    );
  });
});
