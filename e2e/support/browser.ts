import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchChromium } from './chromium.mjs';

export const viewports = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 390, height: 844 },
} as const;

const artifactsDir = path.resolve(import.meta.dirname, '../artifacts');

/** One browser per test file; each test opens its own context (fresh storage). */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
  });

  return {
    baseURL: () => inject('baseURL'),
    /**
     * A new page at the given width, on the shared server or on `baseURL` (a server of the test's
     * own); fails the test on any console error or page error.
     */
    async open(
      viewport: keyof typeof viewports = 'desktop',
      baseURL: string = inject('baseURL'),
    ): Promise<Page> {
      const context = await browser.newContext({ viewport: viewports[viewport], baseURL });
      contexts.push(context);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console error: ${msg.text()} (${msg.location().url})`);
      });
      (page as Page & { problems: string[] }).problems = problems;
      return page;
    },
  };
}

/** Errors the page logged so far (CSP violations, failed requests, exceptions). */
export function pageProblems(page: Page): string[] {
  return (page as Page & { problems?: string[] }).problems ?? [];
}

/** The whole page, or with `fullPage: false` only what the window shows. */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage });
}
