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

const foldedChars = new Map<string, string>();

/**
 * fold() one UTF-16 unit at a time, so every index of the copy is an index of the text. Runs of
 * ASCII are lower-cased whole (the common case, and cheaper than a unit at a time).
 */
function foldSameLength(text: string): string {
  const out: string[] = [];
  let run = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text.charCodeAt(i) < 128) continue;
    if (run < i) out.push(text.slice(run, i).toLowerCase());
    run = i + 1;
    const ch = text[i]!;
    let folded = foldedChars.get(ch);
    if (folded === undefined) {
      folded = fold(ch)[0] ?? ' ';
      // A letter that folds to something outside [a-z0-9] stays itself: it is not searchable.
      if (!/[a-z0-9]/.test(folded)) folded = /\p{L}|\p{N}/u.test(ch) ? '\u00b7' : ' ';
      if (foldedChars.size < 10_000) foldedChars.set(ch, folded);
    }
    out.push(folded);
  }
  if (run < text.length) out.push(text.slice(run).toLowerCase());
  return out.join('');
}

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
    for (const word of wordsIn(folded)) {
      if (marks(folded.slice(word.start, word.end))) return window(text, folded, word.start, marks, length);
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
