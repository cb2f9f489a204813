// Writes a Brotli (.br, best quality) and a gzip (.gz, best level) copy beside each static
// file of the build that is worth compressing, so that the server sends them as they are
// (@fastify/static's preCompressed) instead of compressing every answer again: smaller files
// than on-the-fly compression makes (it must be quick, so it uses Brotli's quality 4), no CPU
// per request, and no compressor's memory in the server.
// The HTML pages are left out: the server answers them from memory (plugins/web-app.ts).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml']);
// Below this the server sends a file as it is (the compress threshold in app.ts).
const MIN_BYTES = 1024;
const SKIP = new Set(['prerendered.json']);

const br = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== path.join(dist, 'pages')) yield* files(full);
    } else if (COMPRESSIBLE.has(path.extname(entry.name)) && !SKIP.has(entry.name)) {
      yield full;
    }
  }
}

const started = performance.now();
const jobs = [];
let raw = 0;
let brotli = 0;
for await (const file of files(dist)) {
  if ((await stat(file)).size < MIN_BYTES) continue;
  jobs.push(
    (async () => {
      const body = await readFile(file);
      const [b, g] = await Promise.all([
        br(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gz(body, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}.br`, b), writeFile(`${file}.gz`, g)]);
      raw += body.length;
      brotli += b.length;
    })(),
  );
}
await Promise.all(jobs);
console.log(
  `precompressed ${jobs.length} files (${(raw / 1024).toFixed(0)} KiB → ${(brotli / 1024).toFixed(0)} KiB Brotli) in ${(
    (performance.now() - started) /
    1000
  ).toFixed(1)} s`,
);
