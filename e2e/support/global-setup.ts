import { createServer as createHttpServer } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startOpenAiServer } from '@gem/test-servers/openai-server';
import { plausiblePolishReply } from '@gem/test-servers/polish-replies';
import type { TestProject } from 'vitest/node';
import { startGem, type RunningGem } from './gem-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The OpenAI-compatible test server's base (without `/v1`), for its `/__control` routes. */
    aiControlURL: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');
export const artifactsDir = path.join(root, 'e2e/artifacts');

/** Starts the built server the way `npm start` runs it, on a free port and an empty data folder. */
export default async function setup(project: TestProject) {
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
  let gem: RunningGem;
  try {
    gem = await startGem({
      NODE_ENV: 'test',
      GEM_DATA_DIR: path.join(dataDir, 'data'),
      GEM_LOG_LEVEL: 'warn',
      GEM_BRAND_CHECKER_URL: brandCheckerUrl,
      GEM_FEEDS_FILE: feedsFile,
      GEM_AI_PROVIDER: 'openai-compatible',
      GEM_AI_BASE_URL: ai.url,
      GEM_AI_MODEL: 'gem-test-model',
      GEM_AI_API_KEY: 'e2e-test-key',
      // Every browser test signs in as the one demo marketer: one minute's allowance of AI calls
      // per user (20 by default) would make a file fail after a busy one. The limit has its own tests.
      GEM_AI_RATE_LIMIT_PER_MINUTE: '1000',
    });
  } catch (error) {
    brandChecker.close();
    await ai.close();
    throw error;
  }
  const { baseURL } = gem;
  project.provide('baseURL', baseURL);
  project.provide('aiControlURL', ai.url.replace(/\/v1$/, ''));

  return async () => {
    await gem.stop();
    brandChecker.close();
    await ai.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
