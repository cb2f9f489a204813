import { BOLD, ITALIC, UNDERLINE, type Run } from '../webvtt/parse-cue-text';
import { pad } from '../webvtt/timestamp';
import type { Subtitle } from './layout-subtitles';

// Opened in this order, closed innermost first, so the tags always nest.
const TAGS: ReadonlyArray<readonly [number, string]> = [
  [BOLD, 'b'],
  [ITALIC, 'i'],
  [UNDERLINE, 'u'],
];

/** `hh:mm:ss,mmm`, the SRT time format (hours grow past two digits if they must). */
export function formatSrtTime(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)},${pad(ms % 1000, 3)}`;
}

// SRT has no escapes: a caption's own "<b>" (written &lt;b&gt; in WebVTT) would turn bold in
// the player. An invisible zero-width space after the "<" keeps it text and looks the same.
const TAG_LIKE = /<(?=\/?[a-z])/gi;
const literal = (text: string) => text.replace(TAG_LIKE, '<\u200B');

/** One line with its b/i/u tags. Each line closes its own tags, which every player reads. */
export function formatSrtLine(runs: readonly Run[]): string {
  if (runs.length === 1 && runs[0]!.style === 0) return literal(runs[0]!.text);
  let out = '';
  const open: Array<readonly [number, string]> = [];
  for (const run of runs) {
    while (open.some(([flag]) => (run.style & flag) === 0)) out += `</${open.pop()![1]}>`;
    for (const tag of TAGS) {
      if ((run.style & tag[0]) !== 0 && !open.includes(tag)) {
        out += `<${tag[1]}>`;
        open.push(tag);
      }
    }
    out += literal(run.text);
  }
  while (open.length > 0) out += `</${open.pop()![1]}>`;
  return out;
}

/** One numbered SRT block, ending with the blank line that separates it from the next. */
export function formatSrtBlock(subtitle: Subtitle, number: number, newline = '\r\n'): string {
  const time = `${formatSrtTime(subtitle.startMs)} --> ${formatSrtTime(subtitle.endMs)}`;
  const text = subtitle.lines.map((line) => formatSrtLine(line.runs)).join(newline);
  return `${number}${newline}${time}${newline}${text}${newline}${newline}`;
}
