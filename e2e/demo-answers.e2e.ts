import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { startGem, type RunningGem } from './support/gem-server';
import { signInWithPopup } from './support/sign-in';

// Issue 27, item 13: on the embedded defaults (development, demo accounts, no AI settings at all),
// the built app answers with its built-in stand-in, and says so on every answer. This file starts
// its own server: the shared one has an AI service configured.

const browser = useBrowser();
let gem: RunningGem;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'gem-e2e-demo-'));
  // As `npm start` runs it on a fresh machine: no NODE_ENV, no GEM_AI_* setting.
  gem = await startGem({ GEM_DATA_DIR: path.join(dataDir, 'data'), GEM_LOG_LEVEL: 'warn' });
});
afterAll(async () => {
  await gem?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function generateArticle(page: Page) {
  await page.goto('/tools/article');
  await page.getByRole('heading', { level: 1, name: 'Article' }).waitFor();
  await page.getByRole('heading', { name: 'Demo answers: no AI service is configured' }).waitFor();
  await page.getByLabel('Paste the base content').fill('Raport: polskie firmy inwestują w analitykę danych.');
  await page.getByLabel('Describe the task for GEM').fill('Krótki news na stronę o wynikach raportu.');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  const output = page.getByRole('region', { name: 'Check the output' });
  await output.getByText(DEMO_ANSWER_TEXT).waitFor({ timeout: 20_000 });
  await output.getByRole('button', { name: 'Copy to clipboard' }).waitFor({ timeout: 20_000 });
  return output;
}

describe('Demo answers on the embedded defaults', () => {
  for (const width of ['desktop', 'mobile'] as const) {
    it(`writes an article with the stand-in and marks it as a demo answer (${viewports[width].width} px)`, async () => {
      const page = await browser.open(width, gem.baseURL);
      await signInWithPopup(page);
      const output = await generateArticle(page);
      // A real answer of the stand-in: Polish text, not an error and not empty.
      const text = await output.innerText();
      expect(text.replace(DEMO_ANSWER_TEXT, '').trim().length).toBeGreaterThan(40);
      expect(text).not.toMatch(/Error|not configured/);
      await screenshot(page, `demo-answer-article-${width}`);
      expect(pageProblems(page)).toEqual([]);
    }, 60_000);
  }
});
