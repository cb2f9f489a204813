import { formatSrtBlock } from './srt/write-srt';
import { layoutSubtitles, type Subtitle } from './srt/layout-subtitles';
import { parseCueText } from './webvtt/parse-cue-text';
import { parseWebVtt, type WebVttProblem } from './webvtt/parse-webvtt';

export type ConversionStats = {
  /** Cues read from the WebVTT file. */
  cues: number;
  /** Numbered subtitles written to the SRT file. */
  subtitles: number;
  /** Cues too long for 3 lines, each written as several subtitles. */
  splitCues: number;
  /** Cues with no text at all (SRT cannot hold an empty subtitle). */
  emptyCues: number;
  /** NOTE, STYLE and REGION blocks left out. */
  skippedBlocks: number;
  /** End of the last subtitle. */
  durationMs: number;
};

export type Conversion =
  { ok: true; srt: string; preview: string; stats: ConversionStats } | { ok: false; problem: WebVttProblem };

type Options = {
  /** How many subtitles the preview shows; the file has them all. */
  previewLimit?: number;
  newline?: string;
};

/** WebVTT text in, SRT text out (spec §9 rules), or the first problem with its line. */
export function convertVttToSrt(
  vtt: string,
  { previewLimit = Infinity, newline = '\r\n' }: Options = {},
): Conversion {
  const parsed = parseWebVtt(vtt);
  if (!parsed.ok) return parsed;

  const { cues, skippedBlocks } = parsed.document;
  const subtitles: Subtitle[] = [];
  let splitCues = 0;
  let emptyCues = 0;
  let inOrder = true;
  for (const cue of cues) {
    const parts = layoutSubtitles(cue.startMs, cue.endMs, parseCueText(cue.text));
    if (parts.length === 0) emptyCues += 1;
    if (parts.length > 1) splitCues += 1;
    for (const part of parts) {
      if (subtitles.length > 0 && part.startMs < subtitles[subtitles.length - 1]!.startMs) inOrder = false;
      subtitles.push(part);
    }
  }
  // The later parts of a split cue can start after the next cue does (they overlap): SRT
  // players want subtitles in start-time order, so they are put back in it (a stable sort).
  if (!inOrder) subtitles.sort((a, b) => a.startMs - b.startMs);

  const blocks = subtitles.map((subtitle, index) => formatSrtBlock(subtitle, index + 1, newline));
  const durationMs = subtitles.reduce((max, subtitle) => Math.max(max, subtitle.endMs), 0);
  const srt = blocks.join('');
  return {
    ok: true,
    srt,
    preview: blocks.length <= previewLimit ? srt : blocks.slice(0, previewLimit).join(''),
    stats: { cues: cues.length, subtitles: blocks.length, splitCues, emptyCues, skippedBlocks, durationMs },
  };
}

/**
 * The bytes of an uploaded file as text. WebVTT is UTF-8 (a BOM is dropped). A file in another
 * encoding (say Windows-1250) would come out garbled, so it is refused, naming the first line
 * that is not UTF-8.
 */
export function decodeVttBytes(
  bytes: Uint8Array,
): { ok: true; text: string } | { ok: false; problem: WebVttProblem } {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    const at = text.indexOf('\uFFFD');
    const line = text.slice(0, Math.max(at, 0)).split(/\r\n|\r|\n/).length;
    return {
      ok: false,
      problem: {
        line,
        message:
          'the file is not UTF-8 text. Save the captions as UTF-8 (the usual choice for WebVTT) and upload them again.',
      },
    };
  }
}

/** `webinar.vtt` + `pl_PL` → `webinar_pl_PL.srt`. */
export function srtFileName(uploadName: string, language: string): string {
  const base = uploadName.replace(/\.vtt$/i, '') || 'captions';
  return `${base}_${language}.srt`;
}
