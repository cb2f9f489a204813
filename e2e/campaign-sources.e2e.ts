import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LONG_TEST_MS } from './brief-creator-page';
import { useAiControl } from './support/ai-control';
import { pageProblems, screenshot, useBrowser } from './support/browser';
import { audit } from './support/axe';
import { campaignFromChat } from './support/campaign-from-chat';
import { signInWithPopup } from './support/sign-in';

// 'Use in…' (issue 29) in Chromium at 1440 × 900 and 390 × 844: from /market-research, a news
// item opens the article tool with the item (title, link, summary) as its base content, and is
// added to a campaign made from a brief accepted in the chat; a competitor search result opens
// paid ads and is added to a campaign too. The open menu and the dialog are looked at (screenshots) and checked with axe, as
// accessibility.e2e.ts checks every page. The e2e server reads the bundled sample feeds and the
// sample competitor corpus (e2e/support/global-setup.ts).

const browser = useBrowser();
const { script } = useAiControl();

const widths = ['desktop', 'mobile'] as const;
type Width = (typeof widths)[number];

/** The first news item of the ESG area, reached from /market-research: its card, title and link. */
async function firstEsgItem(page: Page) {
  await page.goto('/market-research');
  await page.getByRole('heading', { level: 1, name: 'Market Research' }).waitFor();
  await page.getByRole('list', { name: 'All market areas' }).getByRole('link', { name: 'ESG' }).click();
  await page.waitForURL((url) => url.pathname === '/market-research/esg');
  const card = page.getByRole('list', { name: 'ESG news', exact: true }).locator('article').first();
  await card.waitFor({ timeout: 15_000 });
  const title = (await card.locator('h3').evaluate((h) => h.firstChild?.textContent ?? '')).trim();
  const url = (await card.locator('a').first().getAttribute('href')) ?? '';
  return { card, title, url };
}

const useIn = (card: Locator) => card.getByRole('button', { name: /^Use in…/ });

/** Whether the element is inside the window (a menu or dialog cut off at an edge is not). */
const inWindow = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight;
  });

const isAddSource = (method: string, url: string) =>
  method === 'POST' && /^\/api\/campaigns\/[\da-f-]{36}\/sources$/.test(new URL(url).pathname);

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** 'Use in…' → 'Add to campaign…' on a card, the campaign searched for by its name. */
async function openAddDialog(page: Page, card: Locator, name: string) {
  await useIn(card).click();
  await page.getByRole('menuitem', { name: 'Add to campaign…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to a campaign' });
  await dialog.waitFor();
  const search = dialog.getByRole('searchbox', { name: 'Search your campaigns' });
  expect(await isFocused(search)).toBe(true);
  await search.fill(name);
  // The search has been answered when the list holds that campaign alone.
  await expect
    .poll(() => dialog.getByRole('listitem').allInnerTexts())
    .toEqual([expect.stringContaining(name)]);
  expect(await inWindow(dialog)).toBe(true);
  return dialog;
}

describe.each(widths)("'Use in…' at %s width (issue 29)", { timeout: LONG_TEST_MS * 2 }, (width: Width) => {
  it('a news item opens the article tool as its base content, and is added to a campaign', async () => {
    const page = await browser.open(width);
    await signInWithPopup(page);
    const name = `News Sources Webinar ${width}`;
    const campaignPath = await campaignFromChat(page, name, script);
    const found: string[] = [];

    // The menu, from the keyboard: it opens on its first entry.
    const item = await firstEsgItem(page);
    const button = useIn(item.card);
    await button.scrollIntoViewIfNeeded();
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([
      'Article',
      'Social media post',
      'Paid ads',
      'Teaser',
      'Add to campaign…',
    ]);
    expect(await isFocused(menu.getByRole('menuitem', { name: 'Article' }))).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await isFocused(menu.getByRole('menuitem', { name: 'Social media post' }))).toBe(true);
    expect(await inWindow(menu)).toBe(true);
    await screenshot(page, `campaign-sources-menu-${width}`, { fullPage: false });
    found.push(...(await audit(page, `the open menu (${width})`)));
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await isFocused(button)).toBe(true);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    // Article: the item is the base content, the task is the user's to write.
    await button.click();
    await menu.getByRole('menuitem', { name: 'Article' }).click();
    await page.getByRole('heading', { level: 1, name: 'Article' }).waitFor();
    const content = await page.getByLabel('Paste the base content').inputValue();
    const [title, link, gap, ...summary] = content.split('\n');
    expect([title, link, gap]).toEqual([item.title, item.url, '']);
    expect(summary.join('\n').length).toBeGreaterThan(0);
    expect(new URL(page.url()).search).toBe('');
    expect(await page.getByLabel('Describe the task for GEM').inputValue()).toBe('');

    // Add to campaign…: the campaign made above, found by its name.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/market-research/esg');
    const again = await firstEsgItem(page);
    const dialog = await openAddDialog(page, again.card, name);
    await screenshot(page, `campaign-sources-dialog-${width}`, { fullPage: false });
    found.push(...(await audit(page, `the dialog (${width})`)));
    const added = page.waitForResponse((r) => isAddSource(r.request().method(), r.url()));
    await dialog.getByRole('button', { name: `Add to ${name}`, exact: true }).click();
    const answer = await added;
    expect(answer.status()).toBeLessThan(300);
    expect(answer.request().postDataJSON()).toMatchObject({ kind: 'market-research' });
    expect(await answer.json()).toMatchObject({
      kind: 'market-research',
      title: again.title,
      url: again.url,
    });
    await dialog.waitFor({ state: 'detached' });
    expect(await isFocused(useIn(again.card))).toBe(true);
    const toast = page.getByRole('alert').filter({ hasText: `Added to “${name}”.` });
    await expect.poll(() => inWindow(toast)).toBe(true);
    await screenshot(page, `campaign-sources-added-${width}`, { fullPage: false });

    // The toast leads to the campaign.
    await toast.getByRole('link', { name: 'Open the campaign' }).click();
    await page.waitForURL((url) => url.pathname === campaignPath);
    await page.getByRole('heading', { level: 1, name }).waitFor();

    if (found.length > 0) console.error(`axe found:\n${found.join('\n')}`);
    expect(found).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('a competitor search result opens paid ads as its base content, and is added to a campaign', async () => {
    const page = await browser.open(width);
    await signInWithPopup(page);
    const name = `Competitor Sources Webinar ${width}`;
    await campaignFromChat(page, name, script);

    await page.goto('/tools/competitor-search?q=ESG&window=d365');
    const result = page
      .getByRole('list', { name: /^Results for / })
      .getByRole('article')
      .first();
    await result.waitFor({ timeout: 15_000 });
    const title = (await result.locator('h3').innerText()).trim();
    const link = (await result.getByRole('link', { name: /^Read More/ }).getAttribute('href')) ?? '';

    await useIn(result).click();
    await page.getByRole('menuitem', { name: 'Paid ads' }).click();
    await page.getByRole('heading', { level: 1, name: 'Paid ads' }).waitFor();
    const content = await page.getByLabel('Paste the base content').inputValue();
    expect(content.split('\n').slice(0, 3)).toEqual([title, link, '']);
    await page.goBack();

    const again = page
      .getByRole('list', { name: /^Results for / })
      .getByRole('article')
      .first();
    await again.waitFor({ timeout: 15_000 });
    const dialog = await openAddDialog(page, again, name);
    const added = page.waitForResponse((r) => isAddSource(r.request().method(), r.url()));
    await dialog.getByRole('button', { name: `Add to ${name}`, exact: true }).click();
    const answer = await added;
    // Whatever the server answers, the page shows it: the dialog's words or the toast.
    await page
      .getByRole('alert')
      .filter({ hasText: answer.ok() ? `Added to “${name}”.` : 'It could not be added' })
      .first()
      .waitFor();
    await screenshot(page, `campaign-sources-competitor-${width}`, { fullPage: false });
    const found = await audit(page, `the dialog after Add (${width})`);
    if (found.length > 0) console.error(`axe found:\n${found.join('\n')}`);
    expect(found).toEqual([]);
    expect(answer.request().postDataJSON()).toMatchObject({ kind: 'competitor', link, title });
    // The server's answer in the message, should it refuse the result.
    expect(answer.status(), await answer.text()).toBeLessThan(300);
    expect(await answer.json()).toMatchObject({ kind: 'competitor', title, url: link });
    await dialog.waitFor({ state: 'detached' });
    expect(pageProblems(page)).toEqual([]);
  });
});
