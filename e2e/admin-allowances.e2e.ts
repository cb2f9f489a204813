import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useAiControl } from './support/ai-control';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { admin, colleague, signInWithPopup, type DemoAccount } from './support/sign-in';

// Monthly AI allowances (issue 30) in Chromium: the administrator sets the colleague's allowance
// to a single token, the colleague's first generation uses it up, the next is refused in the
// server's words and the tool page shows none left; the administrator raises it and the colleague
// generates again. The colleague, not the marketer every other file signs in as, so no other
// file's generations are refused; the allowance is put back to the default at the end.

const browser = useBrowser();
const { script } = useAiControl();
const EXHAUSTED = 'Your monthly AI allowance is used up. Ask your administrator to raise it.';

async function signedIn(account: DemoAccount): Promise<Page> {
  const page = await browser.open('desktop');
  await signInWithPopup(page, account);
  return page;
}

async function openAllowances(page: Page) {
  await page.goto('/admin/allowances');
  await page.getByRole('heading', { level: 2, name: 'This month' }).waitFor();
}

/** Sets the colleague's own allowance in the dialog of their row ('' puts the default back). */
async function setColleagueAllowance(page: Page, tokens: string) {
  await page.getByRole('button', { name: 'Change the allowance of Demo Colleague' }).click();
  const dialog = page.getByRole('dialog', { name: 'Allowance of Demo Colleague' });
  await dialog.getByLabel('Tokens a month').fill(tokens);
  await dialog.getByRole('button', { name: 'Save allowance' }).click();
  await dialog.waitFor({ state: 'detached' });
}

const colleagueRow = (page: Page): Locator =>
  page.getByRole('listitem').filter({ hasText: 'colleague@example.com' });

const outputPanel = (page: Page) => page.getByRole('region', { name: 'Check the output' });
const allowanceLine = (page: Page) => page.getByTestId('ai-allowance');

async function generateTeaser(page: Page, status: 'succeeded' | 'failed') {
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await outputPanel(page).locator(`[data-output-status="${status}"]`).waitFor({ timeout: 10_000 });
}

async function bothWidths(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(viewports.mobile);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-mobile`);
  await page.setViewportSize(viewports.desktop);
}

let adminPage: Page | undefined;

afterAll(async () => {
  // Whatever happened, the colleague goes back to the default for the files after this one.
  if (!adminPage) return;
  await openAllowances(adminPage);
  if ((await colleagueRow(adminPage).getByText('Own allowance').count()) > 0) {
    await setColleagueAllowance(adminPage, '');
  }
});

describe('monthly AI allowances', () => {
  it('an allowance is used up, refused in clear words, then raised by the administrator', async () => {
    // The colleague signs in first, so the admin page lists them; no limit: no allowance line.
    const tool = await signedIn(colleague);
    await tool.goto('/tools/teaser-generator');
    await tool.getByRole('heading', { level: 1, name: 'Teaser generator' }).waitFor();
    await tool.getByLabel('Paste the base content').fill('Raport o tempie decyzji w firmach.');

    adminPage = await signedIn(admin);
    await openAllowances(adminPage);
    // A negative allowance is refused in the server's words.
    await adminPage.getByRole('button', { name: 'Change the allowance of Demo Colleague' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Allowance of Demo Colleague' });
    await dialog.getByLabel('Tokens a month').fill('-5');
    await dialog.getByRole('button', { name: 'Save allowance' }).click();
    await dialog.getByRole('alert').getByText('The allowance cannot be negative.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    await setColleagueAllowance(adminPage, '1');
    await colleagueRow(adminPage).getByText('Own allowance').waitFor();
    expect(await colleagueRow(adminPage).innerText()).toContain('of 1 token');

    // The colleague's page reads it: one token left; the first generation may still use it.
    await tool.reload();
    await tool.getByLabel('Paste the base content').fill('Raport o tempie decyzji w firmach.');
    await allowanceLine(tool).getByText('1 of 1 token left this month').waitFor();
    await script({ kind: 'text', text: 'Czy Twoja firma decyduje szybciej? Sprawdź raport.' });
    await generateTeaser(tool, 'succeeded');
    // Refreshed as the generation ended: none left, in the warning look, with the words.
    await allowanceLine(tool).getByText('0 of 1 token left this month').waitFor();
    expect(await allowanceLine(tool).innerText()).toContain(EXHAUSTED);

    // The next one is refused before any model call, in the server's words.
    await generateTeaser(tool, 'failed');
    await outputPanel(tool).getByText(EXHAUSTED).waitFor();
    await bothWidths(tool, 'allowance-tool-page-used-up');

    // The administrator sees who is at their limit, and raises it.
    await openAllowances(adminPage);
    await colleagueRow(adminPage).getByText('Used up').waitFor();
    await bothWidths(adminPage, 'admin-allowances');
    await setColleagueAllowance(adminPage, '1000000');
    await colleagueRow(adminPage)
      .getByText(/of 1,000,000 tokens/)
      .waitFor();

    await script({ kind: 'text', text: 'Drugi teaser, po podniesieniu limitu.' });
    await generateTeaser(tool, 'succeeded');
    await outputPanel(tool).getByText('Drugi teaser, po podniesieniu limitu.').waitFor();
    await allowanceLine(tool)
      .getByText(/of 1,000,000 tokens left this month/)
      .waitFor();
    await bothWidths(tool, 'allowance-tool-page');

    // Back to the default (no limit): the line is gone.
    await openAllowances(adminPage);
    await setColleagueAllowance(adminPage, '');
    await tool.reload();
    await tool.getByRole('heading', { level: 1, name: 'Teaser generator' }).waitFor();
    await tool.getByRole('region', { name: 'Your recent outputs' }).waitFor();
    expect(await allowanceLine(tool).count()).toBe(0);

    // The refused call's 429 is the only error either page logged.
    expect(pageProblems(tool).filter((p) => !/status of 429/.test(p))).toEqual([]);
    expect(pageProblems(adminPage).filter((p) => !/status of 400/.test(p))).toEqual([]);
    // Two people's browsers, two sign-ins and three generations.
  }, 120_000);
});
