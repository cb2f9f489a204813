/**
 * The one way GEM writes a count in its words, on the server, in the contracts' messages and on
 * the pages (the web's lib/format-number builds on it): a whole number with English thousands
 * separators, 4000 → "4,000", the text toLocaleString('en'), 'en-US' and 'en-GB' all give for a
 * whole number. Hand-written, not Intl, because the contracts' messages are built in the browser
 * too, where the first Intl formatter a page makes sets up ICU's locale data on the main thread
 * (see the web's lib/format-number). Lint forbids toLocaleString and Intl.NumberFormat in the
 * server, the contracts and the web app, except here and in the web's lib/format-number.
 */

/**
 * A count with thousands separators: 2953 → "2,953", -1234567 → "-1,234,567". A fraction is
 * rounded to the nearest whole number, halves away from zero as Intl rounds them (2.5 → "3",
 * -2.5 → "-3"); no minus zero ("0"). Beyond 1e21, and for NaN and the infinities, the number as
 * JavaScript writes it ("1e+21"): no count GEM shows gets there.
 */
export function formatCount(value: number): string {
  const whole = Math.round(Math.abs(value));
  if (!(whole < 1e21)) return String(value); // 1e21 and beyond, NaN, ±Infinity
  const digits = String(whole);
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return value < 0 && whole !== 0 ? `-${out}` : out;
}
