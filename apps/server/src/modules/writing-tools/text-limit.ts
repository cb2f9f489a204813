/**
 * Cutting an answer to the spec's character limits (§5, §9), counted as contracts'
 * countCharacters counts them: grapheme clusters.
 */

const graphemes = new Intl.Segmenter('pl', { granularity: 'grapheme' });

function splitGraphemes(text: string): string[] {
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

export type CutResult = {
  text: string;
  /** Where it was cut: after a whole sentence, at a word boundary, or inside a word. */
  cutAt: 'none' | 'sentence' | 'word' | 'character';
};

const ELLIPSIS = '…';
const sentenceEnd = /^[.!?…]$/;
// Closing quotes and brackets that may follow a sentence's final mark: „Tak.” or (Tak.)
const closer = /^["'”’»)\]*_]$/;
const space = /^\s+$/u;

/**
 * Cuts `text` to at most `limit` characters (grapheme clusters), trailing whitespace removed.
 *
 * 1. At the last sentence end that fits: `.`, `!`, `?` or `…` (with any closing quotes or
 *    brackets after it) followed by whitespace or the end of the text, or a line break (the
 *    end of a paragraph, heading or list item). A full stop inside a number or a word
 *    (`3.5`, `np.x`) is not followed by whitespace and so is not a sentence end.
 * 2. If no sentence ends within the limit: at the last word boundary (whitespace) that
 *    leaves room for an ellipsis, and the ellipsis marks the cut.
 * 3. If there is not even a word boundary (one very long word): inside it, with an ellipsis.
 */
export function cutToLimit(text: string, limit: number): CutResult {
  const trimmed = text.trimEnd();
  const chars = splitGraphemes(trimmed);
  if (chars.length <= limit) return { text: trimmed, cutAt: 'none' };
  if (limit <= 0) return { text: '', cutAt: 'character' };

  // A boundary is where whitespace follows a visible character; `b` characters are kept.
  const isBoundary = (b: number) => space.test(chars[b]!) && !space.test(chars[b - 1]!);
  const keep = (b: number) => chars.slice(0, b).join('');

  // 1. The last sentence end that fits (b <= limit; chars[b] exists, as the text is longer).
  for (let b = limit; b > 0; b -= 1) {
    if (!isBoundary(b)) continue;
    let lineBreak = false;
    for (let j = b; j < chars.length && space.test(chars[j]!); j += 1) {
      if (/[\n\r\u2028\u2029]/.test(chars[j]!)) lineBreak = true;
    }
    let k = b - 1;
    while (k > 0 && closer.test(chars[k]!)) k -= 1;
    if (lineBreak || sentenceEnd.test(chars[k]!)) return { text: keep(b), cutAt: 'sentence' };
  }

  // 2. The last word boundary that leaves room for the ellipsis.
  const room = limit - 1;
  for (let b = room; b > 0; b -= 1) {
    if (isBoundary(b)) return { text: `${stripTrailingPunctuation(keep(b))}${ELLIPSIS}`, cutAt: 'word' };
  }

  // 3. No boundary at all.
  return { text: `${chars.slice(0, room).join('')}${ELLIPSIS}`, cutAt: 'character' };
}

const trailingPunctuation = /^[\s,;:–—-]$/u;

/**
 * "Słowo," + "…" reads badly: drop a trailing comma, colon, semicolon or dash first. A scan
 * from the end, not `/[…]+$/`, which would retry from every such character of a long run.
 */
function stripTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && trailingPunctuation.test(text[end - 1]!)) end -= 1;
  return text.slice(0, end) || text;
}

const isWord = (token: string) => !token.startsWith('#') && /[\p{L}\p{N}]/u.test(token);
const hashtagLine = /^(?:#[\p{L}\p{N}_]+\s*)+$/u;

/**
 * Cuts `text` to at most `limit` words, as contracts' countWords counts them (hashtags are not
 * words): at the last sentence end or line break within the limit, else after the limit's last
 * word with an ellipsis. A closing line of hashtags stays.
 */
export function cutToWords(text: string, limit: number): CutResult {
  const lines = text.trimEnd().split('\n');
  const tags = lines.length > 1 && hashtagLine.test(lines.at(-1)!.trim()) ? lines.pop()!.trim() : '';
  const body = lines.join('\n').trimEnd();
  const withTags = (kept: string) => (tags ? `${kept}\n\n${tags}` : kept);

  let words = 0;
  let end = -1;
  for (const match of body.matchAll(/\S+/gu)) {
    if (!isWord(match[0])) continue;
    words += 1;
    if (words === limit) end = match.index + match[0].length;
    if (words > limit) break;
  }
  if (words <= limit) return { text: withTags(body), cutAt: 'none' };
  if (limit <= 0) return { text: withTags(''), cutAt: 'character' };

  const within = body.slice(0, end);
  // The last sentence end (a mark, closing quotes, then whitespace) or line break within the limit.
  let best = -1;
  for (const m of within.matchAll(/[.!?…]["'”’»)\]]*(?=\s)|\n/gu)) best = m.index + m[0].length;
  if (end < body.length && /[.!?…]["'”’»)\]]*$/u.test(within)) best = within.length;
  if (best > 0) return { text: withTags(within.slice(0, best).trimEnd()), cutAt: 'sentence' };
  return { text: withTags(`${stripTrailingPunctuation(within)}${ELLIPSIS}`), cutAt: 'word' };
}
