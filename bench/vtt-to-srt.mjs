// WebVTT → SRT: GEM's converter against Debian's ffmpeg on the same generated 3-hour file.
// Run `node bench/vtt-to-srt.mjs [runs]` (default 7 runs each; needs `apt-get install -y ffmpeg`).
// Prints a Markdown table for bench/vtt-to-srt.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 7);
const load = loadavg()[0];
const work = mkdtempSync(path.join(tmpdir(), 'gem-vtt-bench-'));

// The app's own conversion code (TypeScript), bundled as it is for the browser's worker.
const feature = path.join(root, 'apps/web/src/features/marketing-converter');
const bundle = path.join(work, 'convert.mjs');
await build({
  stdin: {
    contents: `export { convertVttToSrt, decodeVttBytes } from './convert-vtt-to-srt.ts';`,
    resolveDir: feature,
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  outfile: bundle,
  logLevel: 'warning',
});
const { convertVttToSrt, decodeVttBytes } = await import(pathToFileURL(bundle).href);

/** A webinar's captions: 3 hours, one cue every 3.6 s, lengths and markup as exports have them. */
function generateVtt(cueCount = 3000, spacingMs = 3600) {
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const words = (
    'the market report shows that mid-sized companies in Poland plan to invest more in digital ' +
    'tools next year while costs rise faster than revenue zażółć gęślą jaźń tax reporting ESG KSeF'
  ).split(' ');
  const time = (ms) => {
    const h = String(Math.floor(ms / 3_600_000)).padStart(2, '0');
    const m = String(Math.floor(ms / 60_000) % 60).padStart(2, '0');
    const s = String(Math.floor(ms / 1000) % 60).padStart(2, '0');
    return `${h}:${m}:${s}.${String(ms % 1000).padStart(3, '0')}`;
  };
  const out = ['WEBVTT - Q3 webinar', '', 'NOTE generated for the benchmark', ''];
  for (let i = 0; i < cueCount; i += 1) {
    const start = i * spacingMs;
    // Mostly one or two caption lines; every 25th cue is a long monologue that must be split.
    const length = i % 25 === 0 ? 60 : 6 + Math.floor(random() * 14);
    const text = Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(' ');
    const line =
      i % 10 === 0 ? `<v Anna Nowak>${text}</v>` : i % 7 === 0 ? `<i>${text}</i> &amp; more` : text;
    out.push(`cue-${i + 1}`, `${time(start)} --> ${time(start + spacingMs - 200)} line:90%`, line, '');
  }
  return out.join('\n');
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value) => `${value.toFixed(1)} ms`;

const input = path.join(work, 'webinar.vtt');
const vtt = generateVtt();
writeFileSync(input, vtt);
const tiny = path.join(work, 'tiny.vtt');
writeFileSync(tiny, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello.\n');

/** GEM: file bytes in, SRT file out, as the page does it (decode, parse, lay out, write). */
function gemOnce(file, output) {
  const started = performance.now();
  const decoded = decodeVttBytes(new Uint8Array(readFileSync(file)));
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.problem));
  const result = convertVttToSrt(decoded.text);
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  writeFileSync(output, result.srt);
  return { ms: performance.now() - started, subtitles: result.stats.subtitles, cues: result.stats.cues };
}

/** ffmpeg: the whole process, as `ffmpeg -i in.vtt out.srt` runs it from a shell. */
function ffmpegOnce(file, output) {
  const started = performance.now();
  const run = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', file, output], {
    encoding: 'utf8',
  });
  const elapsed = performance.now() - started;
  if (run.error) return null;
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr}`);
  return elapsed;
}

const gemOut = path.join(work, 'gem.srt');
const gemFirst = gemOnce(input, gemOut).ms; // the first run pays for the JIT warming up
const gemTimes = Array.from({ length: runs }, () => gemOnce(input, gemOut).ms);
const gem = gemOnce(input, gemOut);

const ffmpegOut = path.join(work, 'ffmpeg.srt');
const ffmpegVersion = spawnSync('ffmpeg', ['-version'], { encoding: 'utf8' });
const haveFfmpeg = !ffmpegVersion.error && ffmpegVersion.status === 0;
if (!haveFfmpeg) console.error('ffmpeg is MISSING (apt-get install -y ffmpeg): timing GEM only.');
let ffmpegTimes = [];
let ffmpegStartup = [];
if (haveFfmpeg) {
  ffmpegOnce(input, ffmpegOut); // warms the page cache
  ffmpegTimes = Array.from({ length: runs }, () => ffmpegOnce(input, ffmpegOut));
  ffmpegStartup = Array.from({ length: runs }, () => ffmpegOnce(tiny, path.join(work, 'tiny.srt')));
}

const countBlocks = (srt) => srt.split(/\r?\n\r?\n/).filter((block) => block.trim() !== '').length;
const rows = [
  ['input', `${gem.cues} cues, 3 h, ${(statSync(input).size / 1024).toFixed(0)} KiB`],
  ['GEM, median of ' + runs, `${ms(median(gemTimes))} (first run ${ms(gemFirst)})`],
  ['GEM output', `${gem.subtitles} subtitles (47 chars × 3 lines; long cues split)`],
];
if (haveFfmpeg) {
  const ffmpegMedian = median(ffmpegTimes);
  rows.push(
    ['ffmpeg, median of ' + runs, ms(ffmpegMedian)],
    ['ffmpeg on a 1-cue file (start-up)', ms(median(ffmpegStartup))],
    ['ffmpeg output', `${countBlocks(readFileSync(ffmpegOut, 'utf8'))} subtitles (no re-wrapping)`],
    ['ratio ffmpeg ÷ GEM', `${(ffmpegMedian / median(gemTimes)).toFixed(2)}`],
    [
      'ratio without ffmpeg start-up',
      `${((ffmpegMedian - median(ffmpegStartup)) / median(gemTimes)).toFixed(2)}`,
    ],
  );
}

console.log(
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.versions.node}` +
    (haveFfmpeg ? `, ${ffmpegVersion.stdout.split('\n')[0].split(' Copyright')[0]}` : '') +
    `, load average ${load.toFixed(1)} at the start`,
);
console.log('');
console.log('| measure | value |');
console.log('| --- | --- |');
for (const [what, value] of rows) console.log(`| ${what} | ${value} |`);
if (!haveFfmpeg) {
  console.log('');
  console.log('ffmpeg is MISSING: no comparison was made. Install it with `apt-get install -y ffmpeg`.');
  process.exitCode = 1;
}
rmSync(work, { recursive: true, force: true });
