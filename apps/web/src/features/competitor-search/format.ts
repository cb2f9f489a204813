import { formatInteger } from '@/lib/format-number';

/** '1 page', '1,234 pages'. */
export const countOf = (count: number, one: string, many: string): string =>
  `${formatInteger(count)} ${count === 1 ? one : many}`;

/**
 * The count line's words: GEM's own index counts exactly ('12 results'), up to its cap
 * ('1,000+ results'); a hosted search service only knows what it has shown so far ('About …').
 */
export function resultsOf(
  info: { formattedTotalResults: string; totalResults: number; totalCapped?: boolean },
  provider: 'index' | 'brave' | undefined,
): string {
  if (info.totalResults === 1 && !info.totalCapped) return '1 result';
  const exact = provider === 'index' || info.totalCapped;
  return `${exact ? '' : 'About '}${info.formattedTotalResults} results`;
}

/**
 * Beside 'Load More Results': how far through the results the list is ('50 of 83 shown'), with
 * the total as the count line says it ('1,000+', 'about 1,200').
 */
export function shownOf(
  shown: number,
  info: { formattedTotalResults: string; totalCapped?: boolean },
  provider: 'index' | 'brave' | undefined,
): string {
  const exact = provider === 'index' || info.totalCapped;
  return `${formatInteger(shown)} of ${exact ? '' : 'about '}${info.formattedTotalResults} shown`;
}

/** Only web links open from a result; anything else (javascript:, data:) is not a link. */
export function webLink(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
