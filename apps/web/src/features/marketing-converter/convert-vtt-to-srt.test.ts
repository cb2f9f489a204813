import { describe, expect, it } from 'vitest';

import { convertVttToSrt, decodeVttBytes, srtFileName } from './convert-vtt-to-srt';
import { describeProblem } from './webvtt/parse-webvtt';

function problemOf(vtt: string): string {
  const result = convertVttToSrt(vtt);
  if (result.ok) throw new Error('expected the file to be refused');
  return describeProblem(result.problem);
}

describe('malformed files get a clear message naming the first problem', () => {
  it.each([
    ['an empty file', '', 'The file is empty. A WebVTT file starts with the line “WEBVTT”.'],
    [
      'no signature',
      'Hello\n\n00:01.000 --> 00:02.000\nHi\n',
      'Line 1: a WebVTT file must start with the line “WEBVTT”, but this one starts with “Hello”.',
    ],
    ['a lower-case signature', 'webvtt\n', 'Line 1: a WebVTT file must start with the line “WEBVTT”'],
    [
      'an SRT file renamed to .vtt',
      '1\r\n00:00:01,000 --> 00:00:02,000\r\nHi\r\n',
      'Line 1: this looks like an SRT file already, not WebVTT.',
    ],
    [
      'SRT-style commas in a timing',
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nFine\n\n00:00:03,000 --> 00:00:04.000\nNot fine\n',
      'Line 6: the cue timing “00:00:03,000 --> 00:00:04.000” cannot be read: the start time “00:00:03,000” has a comma before the milliseconds; WebVTT uses a full stop, as in 00:00:03.000.',
    ],
    [
      'a broken arrow',
      'WEBVTT\n\n00:01.000 -> 00:02.000\nHi\n',
      'Line 3: the cue timing “00:01.000 -> 00:02.000” cannot be read: expected “-->” between the start and the end time.',
    ],
    [
      'a one-digit minute',
      'WEBVTT\n\n00:01.000 --> 1:02.000\nHi\n',
      'Line 3: the cue timing “00:01.000 --> 1:02.000” cannot be read: the end time “1:02.000” is not a WebVTT time',
    ],
    [
      'seconds past 59',
      'WEBVTT\r\n\r\nid\r\n00:00:61.000 --> 00:01:02.000\r\nHi\r\n',
      'Line 4: the cue timing “00:00:61.000 --> 00:01:02.000” cannot be read: the start time “00:00:61.000”',
    ],
    [
      'a missing end time',
      'WEBVTT\n\n00:01.000 -->\nHi\n',
      'Line 3: the cue timing “00:01.000 -->” cannot be read: the end time is missing.',
    ],
    [
      'a cue that ends before it starts',
      'WEBVTT\n\n00:05.000 --> 00:02.000\nHi\n',
      'Line 3: the cue ends at 00:00:02.000, before it starts at 00:00:05.000.',
    ],
    [
      'text outside any cue',
      'WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n\nLost text\nmore\n\n00:03.000 --> 00:04.000\nBye\n',
      'Line 7: “Lost text” is not part of any cue.',
    ],
    [
      'a STYLE block after the first cue',
      'WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\nSTYLE\n::cue {}\n',
      'Line 6: “STYLE” is not part of any cue.',
    ],
  ])('%s', (_name, vtt, message) => {
    expect(problemOf(vtt)).toContain(message);
  });

  it('counts lines the same for CRLF, LF and CR files', () => {
    const lines = ['WEBVTT', '', '00:01.000 --> 00:02.000', 'Hi', '', 'oops', ''];
    for (const newline of ['\r\n', '\n', '\r']) {
      expect(problemOf(lines.join(newline))).toMatch(/^Line 6: “oops”/);
    }
  });
});

describe('what the W3C parser accepts', () => {
  it('reads a signature with text after it, and a file with no cues', () => {
    expect(convertVttToSrt('WEBVTT')).toMatchObject({ ok: true, srt: '', stats: { cues: 0 } });
    expect(convertVttToSrt('WEBVTT\tHeader text\n\n')).toMatchObject({ ok: true, srt: '' });
  });

  it('ends a cue at a line holding an arrow, which starts the next cue', () => {
    const result = convertVttToSrt('WEBVTT\n00:01.000 --> 00:02.000\nOne\n00:02.000 --> 00:03.000\nTwo\n', {
      newline: '\n',
    });
    expect(result.ok && result.srt).toBe(
      '1\n00:00:01,000 --> 00:00:02,000\nOne\n\n2\n00:00:02,000 --> 00:00:03,000\nTwo\n\n',
    );
  });

  it('counts cues, split cues, empty cues and skipped blocks', () => {
    const result = convertVttToSrt(
      'WEBVTT\n\nNOTE hi\n\n00:01.000 --> 00:02.000\n<c></c>\n\n00:02.000 --> 00:09.000\n1\n2\n3\n4\n',
    );
    expect(result.ok && result.stats).toEqual({
      cues: 2,
      subtitles: 2,
      splitCues: 1,
      emptyCues: 1,
      skippedBlocks: 1,
      durationMs: 9000,
    });
  });

  it('previews only the first subtitles but converts them all', () => {
    const cues = Array.from({ length: 5 }, (_, i) => `00:0${i}.000 --> 00:0${i}.500\nCue ${i}`).join('\n\n');
    const result = convertVttToSrt(`WEBVTT\n\n${cues}\n`, { previewLimit: 2 });
    if (!result.ok) throw new Error(result.problem.message);
    expect(result.srt.match(/Cue \d/g)).toHaveLength(5);
    expect(result.preview.match(/Cue \d/g)).toEqual(['Cue 0', 'Cue 1']);
  });
});

describe('decodeVttBytes', () => {
  it('decodes UTF-8 and drops a BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('WEBVTT\nżółw')]);
    expect(decodeVttBytes(bytes)).toEqual({ ok: true, text: 'WEBVTT\nżółw' });
  });

  it('refuses a Windows-1250 file, naming the first line that is not UTF-8', () => {
    // "Zażółć" in Windows-1250 on line 4.
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nZa'),
      0xbf,
      0xf3,
      0xb3,
      0xe6,
    ]);
    const result = decodeVttBytes(bytes);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(describeProblem(result.problem)).toMatch(/^Line 4: the file is not UTF-8 text/);
  });
});

describe('srtFileName', () => {
  it('is the upload’s base name plus the language suffix', () => {
    expect(srtFileName('webinar.vtt', 'pl_PL')).toBe('webinar_pl_PL.srt');
    expect(srtFileName('Q3 Webinar.final.VTT', 'en_US')).toBe('Q3 Webinar.final_en_US.srt');
    expect(srtFileName('.vtt', 'de_DE')).toBe('captions_de_DE.srt');
  });
});

describe('text that looks like a tag', () => {
  it('stays text in the SRT: a player must not read a caption’s own “<b>” as bold', () => {
    const result = convertVttToSrt(
      'WEBVTT\n\n00:01.000 --> 00:02.000\nType &lt;b&gt;, then &lt;/b&gt; <b>&lt;3</b>\n',
    );
    if (!result.ok) throw new Error(result.problem.message);
    expect(result.srt).toBe(
      '1\r\n00:00:01,000 --> 00:00:02,000\r\nType <\u200Bb>, then <\u200B/b> <b><3</b>\r\n\r\n',
    );
  });
});
