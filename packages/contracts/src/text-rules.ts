/**
 * The text rules web and server share (spec §9 limits, the grapheme count, what PostgreSQL can
 * store), without zod, so a page that only needs a limit does not load zod. `generators.ts`
 * re-exports them beside the schemas built on them.
 */

/** Spec §9: the article answer and the paid-ads copy, in user-perceived characters. */
export const OUTPUT_CHARACTER_LIMIT = 600;

// Made on first use: building a segmenter loads ICU's break rules, tens of milliseconds that a
// page which only imports a limit should not pay while it loads.
let graphemes: Intl.Segmenter | undefined;

/**
 * User-perceived characters (grapheme clusters), the unit of OUTPUT_CHARACTER_LIMIT: an emoji,
 * a flag, a family joined by zero-width joiners and a letter with a combining accent count once.
 */
export function countCharacters(text: string): number {
  let count = 0;
  graphemes ??= new Intl.Segmenter('pl', { granularity: 'grapheme' });
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}
/**
 * Words as a post's word limit counts them (spec §9: 200 or 300): runs of non-space characters
 * with a letter or digit in them, hashtags left out (they are the post's tags, not its text).
 */
export function countWords(text: string): number {
  let count = 0;
  for (const token of text.split(/\s+/u)) {
    if (token !== '' && !token.startsWith('#') && /[\p{L}\p{N}]/u.test(token)) count += 1;
  }
  return count;
}

/**
 * The longest start of `text` of at most `max` UTF-16 code units (what `.length` and zod's
 * `.max()` count) that ends between two grapheme clusters: never half an emoji (a lone
 * surrogate, which PostgreSQL cannot store), half a flag or a letter without its accent. Every
 * cut of text GEM keeps or shows goes through here.
 */
export function cutAtGrapheme(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  graphemes ??= new Intl.Segmenter('pl', { granularity: 'grapheme' });
  let end = 0;
  // Only the start is segmented: V8's segmenter takes time in the whole string's length (seconds
  // for megabytes), and whether a boundary falls at a place depends only on the text before it
  // and the one code point after it (at most two units).
  for (const { index, segment } of graphemes.segment(text.slice(0, max + 2))) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}

/** Largest pasted content or task accepted, in characters. */
export const INPUT_CHARACTER_LIMIT = 20_000;

/**
 * True when PostgreSQL can store the text (in `text` and `jsonb` columns): no NUL character
 * (U+0000) and no UTF-16 surrogate without its pair (half an emoji, as a cut string leaves).
 * One pass, linear in the length.
 */
export function isStorableText(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    if (unit === 0) return false;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1); // NaN past the end
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i += 1;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/** What the page shows (under the field's name) for text isStorableText refuses. */
export const unstorableTextMessage = (label: string) =>
  `${label} contains characters that cannot be stored (a NUL character or a broken emoji).`;

/**
 * The explicit bidirectional formatting characters: embeddings and overrides (U+202A–U+202E),
 * isolates (U+2066–U+2069) and the invisible direction marks (U+200E, U+200F, U+061C). Text
 * from outside (a feed, a model's answer) can use them to read differently from what it is
 * ("gpj.exe" shown as "exe.jpg"). Right-to-left letters keep their own direction without them.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text without bidirectional formatting characters (see BIDI_CONTROLS). */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
