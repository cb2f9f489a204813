import { formatDateTime } from '@/lib/format-date';

/**
 * A result's day, 'MMM d, yyyy' (e.g. 'Mar 2, 2026'), or 'Unknown date'. The one date
 * formatter gives 'MMM d, yyyy HH:mm'; a page's date has no meaningful time, so it is left off.
 */
export function formatDay(value: string | null): string {
  if (!value) return 'Unknown date';
  return formatDateTime(value).replace(/ \d{2}:\d{2}$/, '');
}

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
