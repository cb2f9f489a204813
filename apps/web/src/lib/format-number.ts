import { formatCount } from '@gem/contracts/format-number';

/**
 * Counts and measures as English writes them (12,345 and 1,234.5): the same text as
 * Intl.NumberFormat('en-GB') gives for the non-negative numbers the pages show. Hand-written
 * because the first Intl formatter a page makes sets up ICU's locale data, 10–30 ms in one go on
 * the main thread (four times that on a slow phone), in the middle of the first load of the
 * pages that show a count, such as the QR code generator. Every number a page shows goes through
 * here (lint forbids Intl.NumberFormat and toLocaleString elsewhere in the web app), so the
 * pages write numbers one way. The thousands separators are the contracts' formatCount, which
 * the server's and the contracts' messages write their counts with too.
 */

/** A whole number with thousands separators: 2953 → "2,953". */
export function formatInteger(value: number): string {
  return formatCount(value);
}

/**
 * One decimal, always shown, with thousands separators: 1234.56 → "1,234.6", 2 → "2.0". Halves
 * round up as Intl rounds them, on the number as written (35.55 → "35.6"), not on its binary
 * value, which is a hair below (toFixed gives "35.5").
 */
export function formatOneDecimal(value: number): string {
  const written = String(value);
  if (!/^\d+(?:\.\d+)?$/.test(written)) return value.toFixed(1); // 1e21 and beyond, or 1e-7
  const [whole = '0', fraction = ''] = written.split('.');
  const tenths = Number(whole) * 10 + Number(fraction[0] ?? '0') + (Number(fraction[1] ?? '0') >= 5 ? 1 : 0);
  return `${formatCount(Math.floor(tenths / 10))}.${tenths % 10}`;
}

/** At most one decimal, shown only when it is not zero: 1536 / 1024 → "1.5", 2 → "2", 1023.96 → "1,024". */
export function formatAtMostOneDecimal(value: number): string {
  const text = formatOneDecimal(value);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}
