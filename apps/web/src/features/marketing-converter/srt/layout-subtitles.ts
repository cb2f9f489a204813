import type { Run, StyledLine } from '../webvtt/parse-cue-text';

/** Spec §9: subtitle lines are wrapped at 47 characters, with at most 3 lines per cue. */
export const MAX_LINE_LENGTH = 47;
export const MAX_LINES = 3;

export type SubtitleLine = { runs: Run[]; length: number };
export type Subtitle = { startMs: number; endMs: number; lines: SubtitleLine[] };

type Word = {
  runs: Run[];
  /** In characters (code points), as a viewer counts them. */
  length: number;
  /** The style of the space before this word in the source. */
  gapStyle: number;
  endsClause: boolean;
  /** A one-letter word ("a", "I", Polish "w", "z", "o") should not end a line. */
  single: boolean;
};

// A word that ends a sentence or clause, maybe followed by a closing quote or bracket.
const CLAUSE_END = /[.,;:!?…]["'”’»)\]]*$/u;
// Breaking after punctuation is worth this much raggedness (a squared shortfall); leaving a
// one-letter word at the end of a line (Polish typography forbids it) costs as much.
const PUNCTUATION_BONUS = 400;
const SINGLE_LETTER_PENALTY = 400;

/**
 * Lays one cue's text out as SRT subtitles. The author's line breaks stay; a line longer than
 * 47 characters is broken at spaces into the fewest lines that fit, as evenly as possible and
 * preferably after punctuation. A word longer than 47 characters stands alone on its line.
 * When the cue then has more than 3 lines it becomes consecutive subtitles, its time shared out
 * in proportion to their characters. Text is never dropped; a cue with no text yields nothing.
 */
export function layoutSubtitles(startMs: number, endMs: number, text: readonly StyledLine[]): Subtitle[] {
  const lines: SubtitleLine[] = [];
  for (const source of text) {
    const plain = fitsAsItIs(source);
    if (plain) {
      lines.push(plain);
      continue;
    }
    const words = splitWords(source);
    if (words.length === 0) continue;
    for (const [from, to] of breakLines(words)) lines.push(joinWords(words.slice(from, to)));
  }
  if (lines.length === 0) return [];
  if (lines.length <= MAX_LINES) return [{ startMs, endMs, lines }];

  // Even groups: 4 lines → 2 + 2, 5 → 3 + 2, 7 → 3 + 2 + 2.
  const parts = Math.ceil(lines.length / MAX_LINES);
  const base = Math.floor(lines.length / parts);
  const longer = lines.length % parts;
  const groups: SubtitleLine[][] = [];
  let next = 0;
  for (let part = 0; part < parts; part += 1) {
    const size = base + (part < longer ? 1 : 0);
    groups.push(lines.slice(next, next + size));
    next += size;
  }

  const total = lines.reduce((sum, line) => sum + line.length, 0);
  const duration = endMs - startMs;
  const subtitles: Subtitle[] = [];
  let characters = 0;
  let from = startMs;
  groups.forEach((group, index) => {
    characters += group.reduce((sum, line) => sum + line.length, 0);
    const to = index === groups.length - 1 ? endMs : startMs + Math.round((duration * characters) / total);
    subtitles.push({ startMs: from, endMs: to, lines: group });
    from = to;
  });
  return subtitles;
}

/**
 * The common case, without splitting into words: one style, single spaces, short enough.
 * Gives exactly what the general path would.
 */
function fitsAsItIs(line: StyledLine): SubtitleLine | null {
  if (line.length !== 1) return null;
  const run = line[0]!;
  const { text } = run;
  if (text.length > MAX_LINE_LENGTH * 2 || /^[ \t\f]|[ \t\f]$|[\t\f]| {2}/.test(text)) return null;
  const length = codePointLength(text);
  return length <= MAX_LINE_LENGTH ? { runs: [{ text, style: run.style }], length } : null;
}

// Space, tab and form feed break lines; a no-break space (&nbsp;) does not.
const isBreakingSpace = (code: number) => code === 32 || code === 9 || code === 12;

function splitWords(line: StyledLine): Word[] {
  const words: Word[] = [];
  let current: Word | null = null;
  let gapStyle: number | null = null;
  for (const run of line) {
    const { text, style } = run;
    let index = 0;
    while (index < text.length) {
      if (isBreakingSpace(text.charCodeAt(index))) {
        current = null;
        gapStyle ??= style;
        index += 1;
        continue;
      }
      let end = index + 1;
      while (end < text.length && !isBreakingSpace(text.charCodeAt(end))) end += 1;
      const piece = text.slice(index, end);
      if (!current) {
        current = { runs: [], length: 0, gapStyle: gapStyle ?? 0, endsClause: false, single: false };
        words.push(current);
        gapStyle = null;
      }
      appendText(current.runs, piece, style);
      current.length += codePointLength(piece);
      index = end;
    }
  }
  for (const word of words) {
    word.endsClause = CLAUSE_END.test(word.runs[word.runs.length - 1]!.text);
    word.single = word.length === 1 && /^\p{L}$/u.test(word.runs[0]!.text);
  }
  return words;
}

/** Characters as a viewer counts them: an emoji or other astral character is one, not two. */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        index += 1;
      }
    }
  }
  return length;
}

/**
 * Where to break a line of words: the fewest lines of at most 47 characters, and among those
 * the layout with the least raggedness (sum of squared shortfalls), less a bonus for each break
 * after punctuation and not after a one-letter word. Exact, by dynamic programming from the end: O(words × words per line).
 */
function breakLines(words: readonly Word[]): Array<[number, number]> {
  const count = words.length;
  const lines = new Array<number>(count + 1).fill(0);
  const cost = new Array<number>(count + 1).fill(0);
  const breakAt = new Array<number>(count + 1).fill(count);

  for (let from = count - 1; from >= 0; from -= 1) {
    let bestLines = Infinity;
    let bestCost = Infinity;
    let length = -1;
    for (let to = from + 1; to <= count; to += 1) {
      length += 1 + words[to - 1]!.length;
      // One word always fits: a longer word stands alone.
      if (to > from + 1 && length > MAX_LINE_LENGTH) break;
      const shortfall = Math.max(0, MAX_LINE_LENGTH - length);
      const last = words[to - 1]!;
      const bonus =
        to === count
          ? 0
          : (last.endsClause ? PUNCTUATION_BONUS : 0) - (last.single ? SINGLE_LETTER_PENALTY : 0);
      const candidateLines = 1 + lines[to]!;
      const candidateCost = shortfall * shortfall - bonus + cost[to]!;
      if (candidateLines < bestLines || (candidateLines === bestLines && candidateCost < bestCost)) {
        bestLines = candidateLines;
        bestCost = candidateCost;
        breakAt[from] = to;
      }
    }
    lines[from] = bestLines;
    cost[from] = bestCost;
  }

  const ranges: Array<[number, number]> = [];
  for (let from = 0; from < count; from = breakAt[from]!) ranges.push([from, breakAt[from]!]);
  return ranges;
}

function joinWords(words: readonly Word[]): SubtitleLine {
  const runs: Run[] = [];
  let length = 0;
  words.forEach((word, index) => {
    if (index > 0) {
      // A space between two words keeps a style only if both words have it at that edge.
      const before = runs[runs.length - 1]!.style;
      const after = word.runs[0]!.style;
      appendText(runs, ' ', word.gapStyle & before & after);
      length += 1;
    }
    for (const run of word.runs) appendText(runs, run.text, run.style);
    length += word.length;
  });
  return { runs, length };
}

function appendText(runs: Run[], text: string, style: number) {
  const last = runs[runs.length - 1];
  if (last && last.style === style) last.text += text;
  else runs.push({ text, style });
}
