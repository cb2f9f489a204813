import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { admin, signInWithPopup } from './support/sign-in';

// The audit log and the integrations' health (issue 30) in Chromium: a sign-in that fails on the
// embedded provider's form (an account nobody has) is found with the audit page's search, with
// its reason in words; the integrations page shows a block per integration with its settings.
// Both pages at 1440 and 390 px.

const browser = useBrowser();
// No account has it, so no real account's sign-in is slowed by the failure.
const GHOST = `ghost-${Date.now().toString(36)}@example.com`;

async function bothWidths(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(viewports.mobile);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-mobile`);
  await page.setViewportSize(viewports.desktop);
}

describe('the audit log', () => {
  it('finds a failed sign-in by its e-mail, with the reason in words', async () => {
    const page = await browser.open('desktop');
    // On the provider's page: a wrong try first, then the administrator signs in.
    await signInWithPopup(page, admin, undefined, async (popup) => {
      await popup.getByLabel('Email').fill(GHOST);
      await popup.getByLabel('Password').fill('not-the-password');
      await popup.getByRole('button', { name: 'Sign in' }).click();
      await popup.getByText('Invalid email or password').waitFor();
    });

    await page.goto('/admin/audit');
    await page.getByRole('heading', { level: 2, name: 'Entries' }).waitFor();
    await page.getByLabel('Search').fill(GHOST.slice(0, 12));
    const entries = page.getByRole('list', { name: 'Audit entries, newest first' });
    const entry = entries.getByRole('listitem').filter({ hasText: GHOST });
    await entry.waitFor();
    await expect(entry.getByText('Sign-in failed')).toBeTruthy();
    expect(await entry.textContent()).toContain('No account has this e-mail.');
    expect(await entries.getByRole('listitem').count()).toBe(1);
    expect(await page.content()).not.toContain('not-the-password');

    // The kind filter keeps it; another kind does not.
    await page.getByLabel('Kind').selectOption('sign-in.failed');
    await entry.waitFor();
    await page.getByLabel('Kind').selectOption('price');
    await page.getByText('No entry matches.').waitFor();
    await page.getByLabel('Kind').selectOption('');
    await entry.waitFor();

    // A retention out of range is refused in the server's words.
    await page.getByLabel(/Keep entries for/).fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Keep entries at least 7 days.').waitFor();
    await page.getByLabel(/Keep entries for/).fill('365');

    await page.getByRole('button', { name: 'Clear' }).click();
    await entries.waitFor();
    await bothWidths(page, 'admin-audit');
    expect(pageProblems(page).filter((p) => !/status of 400/.test(p))).toEqual([]);
  });
});

describe('the integrations page', () => {
  it('shows a block per integration with its settings', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page, admin);
    await page.goto('/admin/integrations');
    for (const name of ['AI service', 'Market Research feeds', 'Competitors', 'CRM', 'Metrics']) {
      await page.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) }).waitFor();
    }
    // The CRM is the embedded demo CRM, reached by a real call.
    await page.getByText('Reachable').waitFor();
    // Settings are named here, and only here.
    await page.getByText('Settings').first().click();
    await page.getByText('GEM_AI_PROVIDER').waitFor();
    await bothWidths(page, 'admin-integrations');
    expect(pageProblems(page)).toEqual([]);
  });
});
