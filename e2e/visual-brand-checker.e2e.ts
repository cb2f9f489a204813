import { describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser } from './support/browser';
import { signInWithPopup } from './support/sign-in';

const browser = useBrowser();

describe('visual brand checker', () => {
  for (const viewport of ['desktop', 'mobile'] as const) {
    it(`shows the external page in a sandboxed frame (${viewport})`, async () => {
      const page = await browser.open(viewport);
      await signInWithPopup(page);
      await page.goto('/tools/visual-brand-checker');
      await page.getByRole('heading', { level: 1, name: 'Visual brand checker' }).waitFor();
      const frame = page.frameLocator('iframe[title="Visual brand checker"]');
      await frame.getByRole('heading', { name: 'Brand checker test page' }).waitFor();
      await screenshot(page, `visual-brand-checker-${viewport}`);
      // The CSP lets frames come from the brand checker's origin and nowhere else.
      expect(pageProblems(page)).toEqual([]);
    });
  }
});
