import type { SnippetPart } from '@gem/contracts/competitor-search';
import { fold } from '../../lib/search-text';

/**
 * Snippets from a page's own text (issue 13): a window around the first words the query looked
 * for, split into parts with those words marked. Matching runs on an accent-folded copy of the
 * same length, so "zabka" marks "Żabka". Parts are plain text: the page renders them as text.
 */

export const SNIPPET_LENGTH = 240;
/** How much text comes before the first match. */
const LEAD = 60;

/** Each UTF-16 unit's folded code, 0 until first needed. */
const foldedCodes = new Uint8Array(0x10000);
const MIDDLE_DOT = 0xb7;

function foldedCode(code: number): number {
  let folded = foldedCodes[code]!;
  if (folded === 0) {
    const ch = String.fromCharCode(code);
    const f = fold(ch)[0] ?? ' ';
    // A letter that folds to something outside [a-z0-9] stays itself: it is not searchable.
    folded = /[a-z0-9]/.test(f) ? f.charCodeAt(0) : /\p{L}|\p{N}/u.test(ch) ? MIDDLE_DOT : 0x20;
    foldedCodes[code] = folded;
  }
  return folded;
}

/**
 * fold() one UTF-16 unit at a time, so every index of the copy is an index of the text. Every
 * folded unit is [a-z0-9], '\u00b7', a space or other ASCII, so the copy is built as Latin-1 bytes.
 */
function foldSameLength(text: string): string {
  const bytes = Buffer.allocUnsafe(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    bytes[i] = code < 128 ? (code >= 65 && code <= 90 ? code + 32 : code) : foldedCode(code);
  }
  return bytes.toString('latin1');
}

/** [a-z0-9], as wordsIn's pattern. */
const isWordCode = (code: number) => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);

type Word = { start: number; end: number };

function* wordsIn(folded: string, from = 0, to = folded.length): Generator<Word> {
  const re = /[a-z0-9]+/g;
  re.lastIndex = from;
  for (let m = re.exec(folded); m && m.index < to; m = re.exec(folded)) {
    yield { start: m.index, end: m.index + m[0].length };
  }
}

const isSpace = (c: string | undefined) => c !== undefined && c.trim() === '';

/** Builds a snippet from the first text with a marked word (else the first non-empty one). */
export function buildSnippet(
  texts: readonly string[],
  marks: (foldedWord: string) => boolean,
  length = SNIPPET_LENGTH,
): SnippetPart[] {
  for (const text of texts) {
    if (text === '') continue;
    const folded = foldSameLength(text);
    // The words of wordsIn, found a character code at a time (no match objects): most of a
    // snippet's time when the first marked word is far into the text.
    for (let i = 0; i < folded.length;) {
      while (i < folded.length && !isWordCode(folded.charCodeAt(i))) i += 1;
      const start = i;
      while (i < folded.length && isWordCode(folded.charCodeAt(i))) i += 1;
      if (start < i && marks(folded.slice(start, i))) return window(text, folded, start, marks, length);
    }
  }
  const first = texts.find((t) => t !== '');
  return first === undefined ? [] : window(first, foldSameLength(first), 0, () => false, length);
}

function window(
  text: string,
  folded: string,
  matchAt: number,
  marks: (foldedWord: string) => boolean,
  length: number,
): SnippetPart[] {
  let start = Math.max(0, matchAt - LEAD);
  // Start at a word: after the space before it.
  if (start > 0) {
    let s = start;
    while (s < matchAt && !isSpace(text[s - 1])) s += 1;
    start = s;
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) {
    let e = end;
    while (e > matchAt && !isSpace(text[e])) e -= 1;
    if (e > matchAt) end = e;
  }
  // Never cut a surrogate pair.
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;

  const parts: SnippetPart[] = [];
  const push = (t: string, match: boolean) => {
    if (t === '') return;
    const last = parts[parts.length - 1];
    if (last && last.match === match && !match) last.text += t;
    else parts.push({ text: t, match });
  };
  push(start > 0 ? '…' : '', false);
  let at = start;
  for (const word of wordsIn(folded, start, end)) {
    const wordEnd = Math.min(word.end, end);
    if (!marks(folded.slice(word.start, word.end))) continue;
    push(text.slice(at, word.start), false);
    push(text.slice(word.start, wordEnd), true);
    at = wordEnd;
  }
  push(text.slice(at, end).trimEnd(), false);
  if (end < text.length) push('…', false);
  if (parts[0] && !parts[0].match) parts[0].text = parts[0].text.trimStart();
  return parts;
}

/** The snippet as one plain string. */
export const snippetText = (parts: readonly SnippetPart[]) => parts.map((p) => p.text).join('');
