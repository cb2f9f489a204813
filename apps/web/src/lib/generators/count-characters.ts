const segmenter = new Intl.Segmenter('pl', { granularity: 'grapheme' });

/**
 * User-perceived characters (grapheme clusters), the unit of the 600-character limits
 * (spec §9): an emoji or a letter with its accent counts once.
 */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}
