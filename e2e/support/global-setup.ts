import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startOpenAiServer } from '@gem/test-servers/openai-server';
import { plausiblePolishReply } from '@gem/test-servers/polish-replies';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The OpenAI-compatible test server's base (without `/v1`), for its `/__control` routes. */
    aiControlURL: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');
export const artifactsDir = path.join(root, 'e2e/artifacts');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the built server the way `npm start` runs it, on a free port and an empty data folder. */
export default async function setup(project: TestProject) {
  const bundle = path.join(root, 'apps/server/dist/server.js');
  if (!existsSync(bundle) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('Build the app first: npm run build');
  }
  mkdirSync(artifactsDir, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gem-e2e-'));
  // Stands in for the external brand checker page the app embeds.
  const brandChecker = createHttpServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Brand checker</title><h1>Brand checker test page</h1>');
  });
  await new Promise<void>((resolve) => brandChecker.listen(0, '127.0.0.1', resolve));
  const brandCheckerUrl = `http://127.0.0.1:${(brandChecker.address() as { port: number }).port}/`;
  // The AI service the writing tools call; tests script its replies over `/__control`.
  const ai = await startOpenAiServer({ defaultReply: plausiblePolishReply, tokenDelayMs: 2 });
  // The bundled sample feeds, less one area, so an area with no feed configured can be seen.
  const feeds = JSON.parse(
    readFileSync(path.join(root, 'apps/server/feed-samples/feeds.json'), 'utf8'),
  ) as Record<string, string>;
  delete feeds.real_estate;
  const feedsFile = path.join(dataDir, 'feeds.json');
  writeFileSync(feedsFile, JSON.stringify(feeds));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;

  let log = '';
  const server: ChildProcess = spawn(process.execPath, [bundle], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      GEM_DATA_DIR: path.join(dataDir, 'data'),
      GEM_LOG_LEVEL: 'warn',
      GEM_BRAND_CHECKER_URL: brandCheckerUrl,
      GEM_FEEDS_FILE: feedsFile,
      GEM_AI_PROVIDER: 'openai-compatible',
      GEM_AI_BASE_URL: ai.url,
      GEM_AI_MODEL: 'gem-test-model',
      GEM_AI_API_KEY: 'e2e-test-key',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (c) => (log += c));
  server.stderr?.on('data', (c) => (log += c));

  const deadline = Date.now() + 45_000;
  for (;;) {
    const ok = await fetch(`${baseURL}/api/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (server.exitCode !== null || Date.now() > deadline) {
      server.kill('SIGKILL');
      brandChecker.close();
      await ai.close();
      throw new Error(`The GEM server did not become ready:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  project.provide('baseURL', baseURL);
  project.provide('aiControlURL', ai.url.replace(/\/v1$/, ''));

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    brandChecker.close();
    await ai.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
