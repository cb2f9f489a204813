import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { convertVttToSrt } from './convert-vtt-to-srt';
import { codePointLength, MAX_LINE_LENGTH, MAX_LINES } from './srt/layout-subtitles';

// Words as captions have them: Polish letters, digits, punctuation, emoji; now and then one
// longer than a line (a URL).
const letters = Array.from('abcdefghijklmnoprstuwyząćęłńóśźżABCZŁŚ0123456789.,!?\'-–"😀👍');
const shortWord = fc.string({ unit: fc.constantFrom(...letters), minLength: 1, maxLength: 12 });
const longWord = fc.string({ unit: fc.constantFrom(...letters), minLength: 48, maxLength: 90 });
const word = fc.oneof({ arbitrary: shortWord, weight: 30 }, { arbitrary: longWord, weight: 1 });
const tag = fc.constantFrom<null | 'b' | 'i' | 'u' | 'c' | 'v Anna'>(
  null,
  null,
  null,
  'b',
  'i',
  'u',
  'c',
  'v Anna',
);

// A cue: lines of words, some wrapped in tags; a start and a duration in ms.
const cue = fc.record({
  lines: fc.array(fc.array(fc.tuple(word, tag), { minLength: 1, maxLength: 40 }), {
    minLength: 1,
    maxLength: 6,
  }),
  start: fc.integer({ min: 0, max: 3 * 3_600_000 }),
  duration: fc.integer({ min: 0, max: 60_000 }),
});

type Cue = typeof cue extends fc.Arbitrary<infer T> ? T : never;

function vttTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

function toVtt(cues: Array<Cue>): string {
  const escape = (w: string) => w.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const blocks = cues.map(({ lines, start, duration }) => {
    const text = lines
      .map((line) =>
        line.map(([w, t]) => (t ? `<${t}>${escape(w)}</${t.split(' ')[0]}>` : escape(w))).join(' '),
      )
      .join('\n');
    return `${vttTime(start)} --> ${vttTime(start + duration)}\n${text}`;
  });
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}

type SrtCue = { start: number; end: number; lines: string[] };

function parseSrt(srt: string): SrtCue[] {
  const time = (t: string) => {
    const [h, m, rest] = t.split(':');
    const [s, ms] = rest!.split(',');
    return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms);
  };
  return srt
    .split('\r\n\r\n')
    .filter(Boolean)
    .map((block) => {
      const [, timing, ...lines] = block.split('\r\n');
      const [start, end] = timing!.split(' --> ');
      return { start: time(start!), end: time(end!), lines: lines.map((l) => l.replace(/<\/?[biu]>/g, '')) };
    });
}

const convert = (cues: Array<Cue>) => {
  const result = convertVttToSrt(toVtt(cues));
  if (!result.ok) throw new Error(result.problem.message);
  return parseSrt(result.srt);
};

// Captions as most files have them: each cue starts when or after the previous one ends, and
// later than the previous one started. (Cues that start together are put in W3C cue order,
// the longer first, so "in order" has no single meaning for them: the next property covers them.)
const sequentialCues = fc
  .array(fc.record({ cue, gap: fc.integer({ min: 0, max: 5_000 }) }), { minLength: 1, maxLength: 8 })
  .map((items) => {
    let at = 0;
    let previousStart = -1;
    return items.map(({ cue: c, gap }) => {
      const placed = { ...c, start: Math.max(at + gap, previousStart + 1) };
      previousStart = placed.start;
      at = placed.start + placed.duration;
      return placed;
    });
  });
// Any cues: overlapping, out of order.
const cues = fc.array(cue, { minLength: 1, maxLength: 8 });
const words = (input: Array<Cue>) => input.flatMap((c) => c.lines.flat().map(([w]) => w));
const outputWords = (output: SrtCue[]) => output.flatMap((c) => c.lines.flatMap((l) => l.split(' ')));

describe('WebVTT → SRT properties', () => {
  it('keeps every word of the input, in order', () => {
    fc.assert(
      fc.property(sequentialCues, (input) => {
        expect(outputWords(convert(input))).toEqual(words(input));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps every word when cues overlap or come out of order, too', () => {
    fc.assert(
      fc.property(cues, (input) => {
        expect(outputWords(convert(input)).sort()).toEqual(words(input).sort());
      }),
      { numRuns: 200 },
    );
  });

  it('never writes a line over 47 characters, unless it is one longer word', () => {
    fc.assert(
      fc.property(cues, (input) => {
        for (const line of convert(input).flatMap((c) => c.lines)) {
          if (codePointLength(line) > MAX_LINE_LENGTH) expect(line).not.toContain(' ');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never writes more than 3 lines in a subtitle', () => {
    fc.assert(
      fc.property(cues, (input) => {
        for (const srtCue of convert(input)) {
          expect(srtCue.lines.length).toBeGreaterThan(0);
          expect(srtCue.lines.length).toBeLessThanOrEqual(MAX_LINES);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never lets time go backwards', () => {
    fc.assert(
      fc.property(cues, (input) => {
        const output = convert(input);
        output.forEach((srtCue, index) => {
          expect(srtCue.end).toBeGreaterThanOrEqual(srtCue.start);
          if (index > 0) expect(srtCue.start).toBeGreaterThanOrEqual(output[index - 1]!.start);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('shares a split cue’s time out exactly, from its start to its end', () => {
    fc.assert(
      fc.property(cue, (input) => {
        const output = convert([input]);
        expect(output[0]!.start).toBe(input.start);
        expect(output[output.length - 1]!.end).toBe(input.start + input.duration);
        output.slice(1).forEach((srtCue, index) => expect(srtCue.start).toBe(output[index]!.end));
      }),
      { numRuns: 200 },
    );
  });
});
