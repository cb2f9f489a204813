import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { collectTimestamp, formatVttTime, isWebVttWhitespace } from './timestamp';

export type WebVttCue = {
  startMs: number;
  endMs: number;
  /** The raw cue text (tags and character references still in it). */
  text: string;
  /** 1-based line number of the cue's timing line, for messages. */
  line: number;
};

export type WebVttProblem = {
  /** 1-based line of the first problem, or null when it is about the whole file. */
  line: number | null;
  message: string;
};

export type WebVttDocument = {
  cues: WebVttCue[];
  /** NOTE, STYLE and REGION blocks, which SRT has no place for. */
  skippedBlocks: number;
};

/** "Line 7: the cue timing … cannot be read", or the message alone when no line is named. */
export function describeProblem(problem: WebVttProblem): string {
  return problem.line === null ? problem.message : `Line ${problem.line}: ${problem.message}`;
}

export type WebVttParseResult =
  { ok: true; document: WebVttDocument } | { ok: false; problem: WebVttProblem };

const ARROW = '-->';

/**
 * The W3C WebVTT parser (§6.1 "WebVTT parser algorithm" and "collect a WebVTT block"), over
 * lines instead of a character pointer. Where that algorithm would silently drop caption text
 * (a cue whose timing line cannot be read, text outside any cue) or keep a cue that can never
 * show (it ends before it starts), this parser stops and names the line instead: a converter
 * must not lose captions without a word.
 */
export function parseWebVtt(source: string): WebVttParseResult {
  const input = (source.charCodeAt(0) === 0xfeff ? source.slice(1) : source)
    .replace(/\0/g, '\uFFFD')
    .replace(/\r\n?/g, '\n');
  const lines = input.split('\n');

  const signatureProblem = checkSignature(input, lines);
  if (signatureProblem) return { ok: false, problem: signatureProblem };

  const cues: WebVttCue[] = [];
  let skippedBlocks = 0;
  let seenCue = false;
  let index = 1;

  // Past the end means no LF followed the signature line: a valid file without cues.
  if (lines.length === 1) return { ok: true, document: { cues, skippedBlocks } };

  const skipBlankLines = () => {
    while (index < lines.length && lines[index] === '') index += 1;
  };

  /** "Collect a WebVTT block". Advances `index`; returns what the block was. */
  const collectBlock = (inHeader: boolean): BlockResult => {
    let lineCount = 0;
    let previousIndex = index;
    const buffer: string[] = [];
    let bufferLine = index + 1;
    let seenArrow = false;
    let cue: WebVttCue | null = null;
    let badTiming: WebVttProblem | null = null;

    for (;;) {
      const lineNumber = index + 1;
      const line = lines[index] ?? '';
      index += 1;
      lineCount += 1;
      const seenEof = index >= lines.length;

      if (line.includes(ARROW)) {
        if (!inHeader && (lineCount === 1 || (lineCount === 2 && !seenArrow))) {
          seenArrow = true;
          previousIndex = index;
          const timing = parseCueTiming(line);
          if (timing.ok) {
            cue = { startMs: timing.startMs, endMs: timing.endMs, text: '', line: lineNumber };
            buffer.length = 0;
            bufferLine = lineNumber + 1;
            seenCue = true;
          } else {
            cue = null;
            badTiming ??= {
              line: lineNumber,
              message: `the cue timing “${excerpt(line)}” cannot be read: ${timing.reason}.`,
            };
          }
        } else {
          index = previousIndex;
          break;
        }
      } else if (line === '') {
        break;
      } else {
        if (buffer.length === 0) bufferLine = lineNumber;
        buffer.push(line);
        previousIndex = index;
      }
      if (seenEof) break;
    }

    if (badTiming) return { kind: 'problem', problem: badTiming };
    if (cue) {
      cue.text = buffer.join('\n');
      if (cue.endMs < cue.startMs) {
        return {
          kind: 'problem',
          problem: {
            line: cue.line,
            message: `the cue ends at ${formatVttTime(cue.endMs)}, before it starts at ${formatVttTime(cue.startMs)}.`,
          },
        };
      }
      return { kind: 'cue', cue };
    }
    if (inHeader || buffer.length === 0) return { kind: 'skipped' };
    const first = buffer[0] ?? '';
    if (/^NOTE(?:[ \t]|$)/.test(first)) return { kind: 'skipped' };
    // STYLE and REGION are only blocks before the first cue; later they are stray text.
    if (!seenCue && /^(?:STYLE|REGION)[ \t\n\f\r]*$/.test(first)) return { kind: 'skipped' };
    // A timing line with a broken arrow ("->", "—>") reads as text to the algorithm.
    if (/^\s*\d+:\d{2}/.test(first)) {
      const timing = parseCueTiming(first);
      const reason = timing.ok ? 'expected “-->” between the start and the end time' : timing.reason;
      return {
        kind: 'problem',
        problem: {
          line: bufferLine,
          message: `the cue timing “${excerpt(first)}” cannot be read: ${reason}.`,
        },
      };
    }
    return {
      kind: 'problem',
      problem: {
        line: bufferLine,
        message: `“${excerpt(first)}” is not part of any cue. Each cue needs a timing line such as 00:00:01.000 --> 00:00:04.000 above its text, and a blank line before the next cue.`,
      },
    };
  };

  // Header: the signature line's own block, unless a blank line ends it at once.
  if (lines[index] !== '') {
    const header = collectBlock(true);
    if (header.kind === 'problem') return { ok: false, problem: header.problem };
  } else {
    index += 1;
  }
  skipBlankLines();

  while (index < lines.length) {
    const block = collectBlock(false);
    if (block.kind === 'problem') return { ok: false, problem: block.problem };
    if (block.kind === 'cue') cues.push(block.cue);
    else skippedBlocks += 1;
    skipBlankLines();
  }

  // The text track list of cues is in start-time order, longer cues first on a tie (HTML).
  const ordered = cues
    .map((cue, order) => ({ cue, order }))
    .sort((a, b) => a.cue.startMs - b.cue.startMs || b.cue.endMs - a.cue.endMs || a.order - b.order)
    .map(({ cue }) => cue);
  return { ok: true, document: { cues: ordered, skippedBlocks } };
}

type BlockResult =
  { kind: 'cue'; cue: WebVttCue } | { kind: 'skipped' } | { kind: 'problem'; problem: WebVttProblem };

function checkSignature(input: string, lines: string[]): WebVttProblem | null {
  const first = lines[0] ?? '';
  if (/^WEBVTT(?:[ \t]|$)/.test(first)) return null;
  if (input.trim() === '') {
    return { line: null, message: 'The file is empty. A WebVTT file starts with the line “WEBVTT”.' };
  }
  if (/^\s*\d+\s*$/.test(first) && /\d{2}:\d{2}:\d{2},\d{3}\s*-->/.test(lines[1] ?? '')) {
    return {
      line: 1,
      message:
        'this looks like an SRT file already, not WebVTT. A WebVTT file starts with the line “WEBVTT”.',
    };
  }
  return {
    line: 1,
    message: `a WebVTT file must start with the line “WEBVTT”, but this one starts with “${excerpt(first)}”.`,
  };
}

type TimingResult = { ok: true; startMs: number; endMs: number } | { ok: false; reason: string };

/**
 * §6.3 "collect WebVTT cue timings and settings". The settings after the end time are
 * dropped: SRT has no positioning.
 */
export function parseCueTiming(line: string): TimingResult {
  let position = 0;
  const skipWhitespace = () => {
    while (isWebVttWhitespace(line[position])) position += 1;
  };
  // The text a timestamp should have been, for the message.
  const word = () => /^(.*?)(?=\s|-->|$)/.exec(line.slice(position))?.[1] ?? '';

  skipWhitespace();
  const startWord = word();
  const start = collectTimestamp(line, position);
  if (!start) return { ok: false, reason: timestampReason('start', startWord) };
  position = start.end;
  skipWhitespace();
  if (!line.startsWith(ARROW, position)) {
    return { ok: false, reason: 'expected “-->” between the start and the end time' };
  }
  position += ARROW.length;
  skipWhitespace();
  const endWord = word();
  const end = collectTimestamp(line, position);
  if (!end) return { ok: false, reason: timestampReason('end', endWord) };
  return { ok: true, startMs: start.ms, endMs: end.ms };
}

function timestampReason(which: 'start' | 'end', text: string): string {
  if (text === '') return `the ${which} time is missing`;
  if (/^\d+:\d{2}(?::\d{2})?,\d{3}$/.test(text)) {
    return `the ${which} time “${text}” has a comma before the milliseconds; WebVTT uses a full stop, as in ${text.replace(',', '.')}`;
  }
  return `the ${which} time “${excerpt(text)}” is not a WebVTT time (hh:mm:ss.ttt or mm:ss.ttt, e.g. 00:01:02.500)`;
}

function excerpt(text: string, max = 60): string {
  return text.length > max ? `${cutAtGrapheme(text, max - 1)}…` : text;
}
