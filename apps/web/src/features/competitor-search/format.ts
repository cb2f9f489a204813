const number = new Intl.NumberFormat('en');

/** '1 page', '1,234 pages'. */
export const countOf = (count: number, one: string, many: string): string =>
  `${number.format(count)} ${count === 1 ? one : many}`;

/** Only web links open from a result; anything else (javascript:, data:) is not a link. */
export function webLink(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
