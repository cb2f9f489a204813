import { tools } from '@gem/contracts/catalogue';
import { describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { signInWithPopup } from './support/sign-in';

const browser = useBrowser();

describe('app shell', () => {
  it('home renders its heading, the navigation and both teasers (desktop)', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page);
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await page
      .getByRole('heading', { level: 1, name: 'Welcome to Generative and enhanced marketing' })
      .waitFor();

    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'Market Research', 'Tools', 'How to use']) {
      expect(await nav.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    }
    expect(await nav.getByRole('link', { name: 'Logout' }).isVisible()).toBe(true);
    expect(await page.locator('main a[href^="/market-research/"]').count()).toBe(4);
    expect(await page.locator('main a[href^="/tools/"]').count()).toBe(4);

    // The navigation bar is 10% of the viewport high.
    const bar = await page.locator('header').first().boundingBox();
    expect(Math.abs((bar?.height ?? 0) - viewports.desktop.height * 0.1)).toBeLessThanOrEqual(2);

    await page.getByRole('link', { name: 'View more' }).first().click();
    await page.waitForURL('**/market-research');
    await page.getByRole('heading', { level: 1, name: 'Market Research' }).waitFor();
    expect(await page.locator('main a[href^="/market-research/"]').count()).toBe(11);

    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await screenshot(page, 'home-desktop');
    expect(pageProblems(page)).toEqual([]);
  });

  it('is keyboard-navigable: skip link first, then the navigation, with visible focus', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page);
    await page.goto('/tools');
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: /skip to content/i });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const focusedInMain = await page.evaluate(() => document.activeElement?.closest('main') !== null);
    expect(focusedInMain).toBe(true);

    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const navLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools' });
    await navLink.focus();
    const outline = await navLink.evaluate((el) => {
      const style = getComputedStyle(el);
      return { width: style.outlineWidth, style: style.outlineStyle, shadow: style.boxShadow };
    });
    expect(outline.style !== 'none' || outline.shadow !== 'none').toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/tools');
  });

  it('at 390 px the mobile menu opens, navigates and closes', async () => {
    const page = await browser.open('mobile');
    await signInWithPopup(page);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const bar = await page.locator('header').first().boundingBox();
    expect(bar?.height).toBeGreaterThanOrEqual(viewports.mobile.height * 0.1 - 2);
    await screenshot(page, 'home-mobile');

    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    const box = await menu.boundingBox();
    expect(box?.width).toBe(viewports.mobile.width);
    expect(box?.height).toBeGreaterThanOrEqual(viewports.mobile.height - 1);
    await page.screenshot({ path: 'e2e/artifacts/menu-mobile.png' });

    await menu.getByRole('button', { name: 'Close menu' }).click();
    await menu.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Menu' }).click();
    await menu.getByRole('link', { name: 'Tools' }).click();
    await page.waitForURL('**/tools');
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    expect(pageProblems(page)).toEqual([]);
  });

  for (const viewport of ['desktop', 'mobile'] as const) {
    it(`/tools lists the eleven tools in catalogue order (${viewport})`, async () => {
      const page = await browser.open(viewport);
      await signInWithPopup(page);
      await page.goto('/tools');
      await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
      const hrefs = await page
        .locator('main a[href^="/tools/"]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(tools.map((t) => `/tools/${t.slug}`));
      // Every illustration is served (lazy images below the fold may not have loaded yet).
      const sources = await page
        .locator('main img')
        .evaluateAll((imgs) => (imgs as HTMLImageElement[]).map((i) => i.getAttribute('src') ?? ''));
      expect(sources).toHaveLength(tools.length);
      for (const src of sources) {
        const res = await page.request.get(src);
        expect(res.status(), src).toBe(200);
        expect(res.headers()['content-type'], src).toContain('image/svg+xml');
      }
      await screenshot(page, `tools-${viewport}`);
      expect(pageProblems(page)).toEqual([]);
    });
  }

  it('an unknown route shows the 404 page, with a 404 status', async () => {
    const page = await browser.open('desktop');
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await page.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/');
    // The browser reports the 404 document itself as a failed load; nothing else may fail.
    expect(pageProblems(page).filter((p) => !p.includes('404'))).toEqual([]);
  });
});
