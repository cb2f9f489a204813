// Cold start and home page weight. Run `npm run build` first, then `node bench/startup.mjs`.
// Prints a Markdown table to paste into bench/README.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 5);

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/** Launches `npm start` and returns ms until /api/ready first answers 200. */
async function coldStart(dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      GEM_DATA_DIR: dataDir,
      GEM_LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
    detached: true,
  });
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/ready`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - started;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
  return { ms, port };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const scratch = mkdtempSync(path.join(tmpdir(), 'gem-bench-'));
try {
  const fresh = [];
  const existing = [];
  for (let i = 0; i < runs; i++) {
    const dir = path.join(scratch, `run-${i}`, 'data');
    fresh.push((await coldStart(dir)).ms);
    existing.push((await coldStart(dir)).ms);
  }

  // Home page weight: everything index.html loads as script or stylesheet (module preloads too).
  const port = await freePort();
  const child = spawn('node', ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      GEM_DATA_DIR: path.join(scratch, 'w'),
      GEM_LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (
      await fetch(`${base}/api/ready`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const html = await (await fetch(`${base}/`)).text();
  const refs = [...html.matchAll(/<(?:script[^>]*src|link[^>]*href)="([^"]+\.(js|css))"/g)].map((m) => [
    m[1],
    m[2],
  ]);
  const sizes = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
  for (const [ref, kind] of refs) {
    const body = Buffer.from(await (await fetch(new URL(ref, base))).arrayBuffer());
    sizes[kind].raw += body.length;
    sizes[kind].gzip += gzipSync(body).length;
  }
  child.kill('SIGTERM');

  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`| measure | value |\n|---|---|`);
  console.log(`| cold start, existing data folder (median of ${runs}) | ${median(existing).toFixed(0)} ms |`);
  console.log(`| cold start, empty data folder (median of ${runs}) | ${median(fresh).toFixed(0)} ms |`);
  console.log(
    `| home page JavaScript (${refs.filter((r) => r[1] === 'js').length} files) | ${kb(sizes.js.gzip)} gzip (${kb(sizes.js.raw)} raw) |`,
  );
  console.log(`| home page CSS | ${kb(sizes.css.gzip)} gzip (${kb(sizes.css.raw)} raw) |`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
