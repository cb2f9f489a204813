import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, chatTurn, LONG_TEST_MS, openNewChat, preview, say, showFields } from './brief-creator-page';
import { useAiControl } from './support/ai-control';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { campaignFromChat } from './support/campaign-from-chat';
import { banTerm } from './support/brand-profile';
import { signInWithPopup } from './support/sign-in';

// The brand voice's style check in Chromium (issue 31): the administrator bans a term through
// the admin API (PUT /api/admin/brand-voice, based on the version in force), a marketer's article
// whose model answer has the term in an inflected form shows the finding inline; Apply all fixes
// every safe finding, leaving the rest of the text byte-identical; Undo restores it. Then the
// Check text page at 1440 and 390 px. The profile in force before is saved back at the end.

const browser = useBrowser();
const { script } = useAiControl();

const BANNED = { term: 'budżetowy', reason: 'Brzmi tanio; mówimy o wartości.', replacement: 'ekonomiczny' };

let restore: (() => Promise<void>) | undefined;

afterAll(async () => {
  await restore?.();
});

const outputPanel = (page: Page) => page.getByRole('region', { name: 'Check the output' });

async function bothWidths(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(viewports.mobile);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-mobile`);
  await page.setViewportSize(viewports.desktop);
}

describe('brand voice', () => {
  beforeAll(async () => {
    restore = await banTerm(browser, BANNED);
  }, LONG_TEST_MS);

  it('a banned term in an inflected form is marked in the article; Apply all fixes the safe findings, Undo restores; reopened from the history it shows them again', async () => {
    const page = await browser.open('desktop');
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.baseURL() });
    await signInWithPopup(page);
    await page.goto('/tools/article');
    await page.getByRole('heading', { level: 1, name: 'Article' }).waitFor();
    await page.getByLabel('Paste the base content').fill('Raport o kosztach doradztwa w Polsce.');
    await page.getByLabel('Describe the task for GEM').fill('Notka o oszczędnościach na stronę.');
    // An inflected form (its fix needs the writer: not safe) and the base form (safe).
    const answer = 'Firmy szukają budżetowych rozwiązań. Nasz budżetowy pakiet pokazuje, gdzie zaoszczędzić.';
    await script({ kind: 'text', text: answer });
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const output = outputPanel(page);
    await output.locator('[data-output-status="succeeded"]').waitFor({ timeout: 15_000 });

    const findings = output.locator('[data-style-findings]');
    // Marked in the output itself, which shows the text once.
    const inflected = output.getByRole('button', { name: 'budżetowych (Banned term)' });
    await inflected.waitFor();
    await output.getByRole('button', { name: 'budżetowy (Banned term)' }).waitFor();
    await expect(output.getByText(/pokazuje, gdzie zaoszczędzić/).count()).resolves.toBe(1);
    await inflected.click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toContain('Banned term„budżetowych”');
    await bothWidths(page, 'brand-voice-article-findings');

    await findings.getByRole('button', { name: /^Apply all/ }).click();
    const fixed = answer.replace('Nasz budżetowy pakiet', 'Nasz ekonomiczny pakiet');
    await output.getByRole('button', { name: 'Copy to clipboard' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(fixed);
    // The inflected form's finding stays, for the marketer to apply or rewrite.
    await inflected.waitFor();
    await bothWidths(page, 'brand-voice-article-applied');

    await findings.getByRole('button', { name: 'Undo' }).click();
    await output.getByRole('button', { name: 'budżetowy (Banned term)' }).waitFor();
    await output.getByRole('button', { name: 'Copy to clipboard' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(answer);

    // Opened again from the recent outputs, the output shows the findings stored with it.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Article' }).waitFor();
    const recent = page.getByRole('region', { name: 'Your recent outputs' });
    await recent
      .getByRole('button', { name: /Notka o oszczędnościach na stronę/ })
      .first()
      .click();
    await outputPanel(page).getByRole('button', { name: 'budżetowych (Banned term)' }).waitFor();
    await outputPanel(page).getByRole('button', { name: 'budżetowy (Banned term)' }).waitFor();
    expect(pageProblems(page)).toEqual([]);
  });

  it('the Check text page checks a pasted text for a channel, at 1440 and 390 px', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page);
    await page.goto('/tools');
    await page.getByRole('link', { name: 'Check text' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check text' }).waitFor();
    await bothWidths(page, 'brand-voice-check-text-empty');

    const text = 'Oferujemy BUDŻETOWY audyt!! Zapraszamy na "spotkanie" z ekspertami.';
    const field = page.getByLabel('Text to check');
    await field.fill(text);
    await page
      .getByLabel('What is it for? (optional)')
      .selectOption({ label: 'LinkedIn post (campaign channel)' });
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    const results = page.getByRole('region', { name: 'Findings' });
    await results.getByText(/Checked against brand profile version \d+\./).waitFor();
    await results
      .getByRole('button', { name: /BUDŻETOWY \(/ })
      .first()
      .waitFor();
    await bothWidths(page, 'brand-voice-check-text');

    await results.getByRole('button', { name: /^Apply all/ }).click();
    const after = await field.inputValue();
    expect(after).not.toBe(text);
    expect(after).toContain('Zapraszamy na');
    await results.getByRole('button', { name: 'Undo' }).click();
    expect(await field.inputValue()).toBe(text);

    await page.setViewportSize(viewports.mobile);
    await results.getByRole('button', { name: /^Apply all/ }).click();
    await results.getByRole('button', { name: 'Undo' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'brand-voice-check-text-applied-mobile');
    expect(pageProblems(page)).toEqual([]);
  });

  it(
    "the brief's findings show in the brief preview after a turn; Apply all changes the fields, Undo restores them",
    { timeout: LONG_TEST_MS },
    async () => {
      const page = await browser.open('desktop');
      await signInWithPopup(page);
      await openNewChat(page);
      // The base form (a safe fix) in one field, an inflected form (not safe) in a list item.
      await script(
        chatTurn('Jaki jest budżet kampanii?', {
          campaignName: 'Webinar dla CFO',
          primaryObjective: 'Pokazać nasz budżetowy pakiet analiz dyrektorom finansowym.',
          channels: ['LinkedIn', 'Newsletter budżetowych porad'],
          // The other required fields, so the brief can be accepted.
          campaignType: ['Webinar'],
          targetAudience: 'Dyrektorzy finansowi średnich firm produkcyjnych.',
          keyMessages: 'Płynność finansowa da się zaplanować.',
          activityKPIs: ['200 rejestracji'],
          businessKPIs: ['20 spotkań z klientami'],
        }),
      );
      await say(page, 'Webinar dla CFO o płynności.', 'Jaki jest budżet kampanii?');
      const brief = preview(page);
      const findings = brief.locator('[data-style-findings]');
      await findings.getByRole('button', { name: 'budżetowy (Banned term)' }).waitFor();
      await findings.getByRole('button', { name: 'budżetowych (Banned term)' }).waitFor();
      await findings.getByText(/Checked against brand profile version \d+\./).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'brand-voice-brief-findings-desktop');

      await findings.getByRole('button', { name: /^Apply all/ }).click();
      const objective = brief.getByLabel('Primary objective');
      expect(await objective.inputValue()).toBe(
        'Pokazać nasz ekonomiczny pakiet analiz dyrektorom finansowym.',
      );
      // The inflected form's finding stays, for the marketer to apply or rewrite.
      await findings.getByRole('button', { name: 'budżetowych (Banned term)' }).waitFor();
      await findings.getByRole('button', { name: 'Undo' }).click();
      expect(await objective.inputValue()).toBe(
        'Pokazać nasz budżetowy pakiet analiz dyrektorom finansowym.',
      );
      await findings.getByRole('button', { name: 'budżetowy (Banned term)' }).waitFor();

      await page.setViewportSize(viewports.mobile);
      await showFields(page, 'mobile');
      // The findings' top below the page's header bar.
      await findings.evaluate((element) => {
        element.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -(document.querySelector('header')?.getBoundingClientRect().bottom ?? 0) - 8);
      });
      await screenshot(page, 'brand-voice-brief-findings-mobile', { fullPage: false });

      // Accepted, the finished brief is checked on opening: its findings, read only.
      await page.setViewportSize(viewports.desktop);
      await chat(page).getByRole('button', { name: 'Accept brief' }).click();
      const link = chat(page).getByRole('link', { name: 'View the finished brief' });
      await link.waitFor({ timeout: 10_000 });
      await link.click();
      const finished = page.locator('[data-style-findings]');
      await finished.getByRole('button', { name: 'budżetowy (Banned term)' }).waitFor();
      expect(await finished.getByRole('button', { name: /^Apply/ }).count()).toBe(0);
      await bothWidths(page, 'brand-voice-finished-brief-findings');
      expect(pageProblems(page)).toEqual([]);
    },
  );

  it(
    'a campaign asset is checked against its channel; Apply all and Undo save new versions',
    { timeout: LONG_TEST_MS },
    async () => {
      const page = await browser.open('desktop');
      await signInWithPopup(page);
      await campaignFromChat(page, 'Brand voice check', script);
      const post = page.getByRole('region', { name: 'Assets', exact: true }).getByRole('article', {
        name: 'LinkedIn post',
      });
      await post.getByRole('button', { name: 'Generate from brief' }).click();
      const form = post.getByRole('form', { name: 'Generate the LinkedIn post from the brief' });
      await form.getByLabel('Describe the post').waitFor();
      const written = 'Zapraszamy na webinar o płynności. Nasz budżetowy pakiet analiz czeka na Państwa.';
      await script({ kind: 'text', text: written });
      await form.getByRole('button', { name: 'Generate' }).click();
      await post.getByText('Version 1', { exact: true }).first().waitFor({ timeout: 15_000 });

      await post.getByRole('button', { name: 'Check', exact: true }).click();
      await post.getByRole('button', { name: 'budżetowy (Banned term)' }).waitFor();
      await post.scrollIntoViewIfNeeded();
      await screenshot(page, 'brand-voice-asset-findings-desktop');
      await post.getByRole('button', { name: /^Apply all/ }).click();
      await post.getByText('Version 2', { exact: true }).first().waitFor();
      await post.getByText(written.replace('budżetowy', 'ekonomiczny')).first().waitFor();
      await post.getByRole('button', { name: 'Undo' }).click();
      await post.getByText('Version 3', { exact: true }).first().waitFor();
      await post.getByText(written).first().waitFor();
      await page.setViewportSize(viewports.mobile);
      await post.locator('[data-style-findings]').scrollIntoViewIfNeeded();
      await screenshot(page, 'brand-voice-asset-undone-mobile', { fullPage: false });
      expect(pageProblems(page)).toEqual([]);
    },
  );
});
