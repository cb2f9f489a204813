import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateSegmentsResponseSchema, type ValueCount } from '@gem/contracts/campaign-audience-builder';
import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAiControl } from './support/ai-control';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { startGem, type RunningGem } from './support/gem-server';
import { signInWithPopup } from './support/sign-in';

// The campaign audience builder (issue 14) in Chromium, against the embedded demo CRM (fictional
// campaigns and contacts) and the stand-in model's segments answer: pick a campaign, generate,
// copy a report's URL, open the report in a new tab, page through it and download its CSV.

const browser = useBrowser();
const { script } = useAiControl();

const path = '/tools/campaign-audience-builder';
/** The phone width the issue asks for (narrower than support's mobile viewport). */
const phone = { width: 375, height: 812 };

const results = (page: Page) => page.getByRole('region', { name: 'Segments' });
const reports = (page: Page) => results(page).getByRole('region', { name: 'Reports' });

/** The page never scrolls sideways: everything wide scrolls inside its own box. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** Screenshots at the desktop width and at 375 and 390 px, checking each phone width fits. */
async function screenshots(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-desktop`);
  for (const size of [phone, viewports.mobile]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoSidewaysScroll(page);
    await screenshot(page, `${name}-${size.width}`);
  }
  await page.setViewportSize(viewports.desktop);
}

async function buttonText(button: Locator) {
  return ((await button.textContent()) ?? '').trim();
}

/**
 * Searches the picker for last year's campaigns (they have responses) and picks the first: the
 * Campaign ID is filled in. Returns the campaign's name.
 */
async function pickLastYearsCampaign(page: Page): Promise<string> {
  const picker = page.getByRole('region', { name: 'Recent campaigns' });
  const word = String(new Date().getFullYear() - 1);
  await picker.getByRole('searchbox', { name: 'Search campaigns' }).fill(word);
  const matching = picker.getByRole('list', { name: `Campaigns matching ${word}` }).getByRole('button');
  // Until the search's answer is in, the last list stays: wait for one of matches only.
  await expect
    .poll(async () => {
      const texts = await matching.allTextContents();
      return texts.length > 0 && texts.every((text) => text.includes(word));
    })
    .toBe(true);
  const name = (await matching.first().locator('span').first().textContent()) ?? '';
  await matching.first().click();
  expect(await matching.first().getAttribute('aria-pressed')).toBe('true');
  return name;
}

/** Clicks Generate Segments; resolves with the answer once the results show it. */
async function generate(page: Page, campaignName: string) {
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/api/sf/generate-boost-segments'),
      { timeout: 30_000 },
    ),
    page.getByRole('button', { name: 'Generate Segments' }).click(),
  ]);
  const answer = generateSegmentsResponseSchema.parse(await response.json());
  await results(page).getByRole('heading', { level: 2, name: campaignName }).waitFor();
  return answer;
}

/** A share as the prompt gives it to the model ("37,5%") or as the page shows it ("37.5%"). */
const share = (part: number, whole: number, decimal: ',' | '.') =>
  `${(Math.round((part / whole) * 1_000) / 10).toFixed(1).replace('.', decimal)}%`;
const membersOf = (value: ValueCount) => value.responders + value.nonResponders;

/** An element's screenshot in e2e/artifacts. */
const shotOf = (locator: Locator, name: string) =>
  locator.screenshot({ path: resolve(import.meta.dirname, 'artifacts', `${name}.png`) });

describe('Campaign audience builder', () => {
  it('picks a campaign, generates segments, copies a report URL, opens the report and downloads its CSV', async () => {
    const page = await browser.open('desktop');
    const gem = new URL(browser.baseURL()).origin;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gem });
    await signInWithPopup(page);

    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: 'Campaign audience builder' }).waitFor();
    const tabs = page.getByRole('tablist', { name: 'Audience builder' }).getByRole('tab');
    expect(await tabs.allTextContents()).toEqual(['Automatic', 'Manual']);

    // The picker: the demo CRM's recent campaigns, marked as sample data.
    const picker = page.getByRole('region', { name: 'Recent campaigns' });
    const options = picker.getByRole('list', { name: 'Recent campaigns' }).getByRole('button');
    await options.first().waitFor();
    expect(await picker.getByText('Sample data').count()).toBe(1);
    expect(await options.count()).toBeGreaterThan(3);
    await screenshots(page, 'campaign-audience-builder-idle');

    // Manual is announced only.
    await tabs.nth(1).click();
    await page.getByRole('tabpanel', { name: 'Manual' }).getByText('Comming soon.').waitFor();
    await tabs.nth(0).click();

    // The Campaign ID keeps letters and digits, at most 18; a short one is explained.
    const idField = page.getByRole('textbox', { name: 'Campaign ID' });
    await idField.fill('70-1 ab!');
    expect(await idField.inputValue()).toBe('701ab');
    await page.getByRole('button', { name: 'Generate Segments' }).click();
    await page.getByText('Campaign ID must be exactly 18 characters').waitFor();
    await idField.fill('');

    // Search (a year: last year's campaigns have responses), then pick: the id is filled in.
    const firstName = await pickLastYearsCampaign(page);
    const campaignId = await idField.inputValue();
    expect(campaignId).toMatch(/^[A-Z0-9]{18}$/i);

    // Generate: the loading state, then the results.
    await page
      .getByRole('textbox', { name: 'Marketing Goal' })
      .fill('Więcej dyrektorów finansowych na kolejnej edycji');
    const [request] = await Promise.all([
      page.waitForRequest(
        (r) => r.method() === 'POST' && r.url().endsWith('/api/sf/generate-boost-segments'),
      ),
      page.getByRole('button', { name: 'Generate Segments' }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({
      campaignId,
      topic: 'Więcej dyrektorów finansowych na kolejnej edycji',
    });
    await results(page).getByRole('heading', { level: 2, name: firstName }).waitFor({ timeout: 20_000 });
    await results(page).getByRole('figure', { name: 'Members by sub-industry' }).waitFor();
    expect(await results(page).getByRole('heading', { name: 'AI analysis' }).count()).toBe(1);
    expect(await results(page).getByText('Najlepiej odpowiadali', { exact: false }).count()).toBe(1);
    const groups = await reports(page).getByRole('heading', { level: 4 }).allTextContents();
    expect(groups.length).toBeGreaterThan(0);
    expect(['New prospects', 'Follow-up', 'Past responders']).toEqual(expect.arrayContaining(groups));
    const cards = reports(page).getByRole('article');
    expect(await cards.count()).toBeGreaterThan(0);
    expect(await cards.first().textContent()).toMatch(/\d contacts?|Reach not counted/);
    await screenshots(page, 'campaign-audience-builder-results');

    // Copy URL: the clipboard holds the report's absolute address; 'Copied!' shows, then goes.
    const card = cards.first();
    const copy = card.getByRole('button', { name: /Copy URL|Copied!/ });
    await copy.click();
    await card.getByText('Copied!').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.startsWith(`${gem}/tools/campaign-audience-builder/report?`)).toBe(true);
    await page.waitForFunction((el) => el?.textContent?.includes('Copy URL'), await copy.elementHandle(), {
      timeout: 5_000,
    });
    expect(await buttonText(copy)).toBe('Copy URL');

    // Open Report: a new tab, without a way back to GEM.
    const open = card.getByRole('link', { name: /^Open Report/ });
    expect(await open.getAttribute('target')).toBe('_blank');
    expect(await open.getAttribute('rel')).toBe('noopener noreferrer');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), open.click()]);
    const tabProblems: string[] = [];
    tab.on('pageerror', (err) => tabProblems.push(`page error: ${err.message}`));
    tab.on('console', (msg) => {
      if (msg.type() === 'error') tabProblems.push(`console error: ${msg.text()}`);
    });
    await tab.waitForLoadState();
    expect(tab.url()).toBe(copied);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    const title = (await card.getByRole('heading').first().textContent()) ?? '';
    await tab.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 15_000 });
    await tab.getByRole('region', { name: 'Segment' }).waitFor();
    const table = tab.getByRole('table');
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Name',
      'E-mail',
      'Title',
      'Account',
      'Company size',
      'Industry',
      'Last campaign response',
    ]);
    const rows = await table.locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    // Issue 27, item 7: each contact with the CRM's contact id, its e-mail and its account's id.
    const firstRow = table.locator('tbody tr').first();
    const contactId = /003[a-z0-9]{15}/i.exec(
      (await firstRow.getByRole('rowheader').textContent()) ?? '',
    )?.[0];
    const email = (await firstRow.getByRole('link').first().getAttribute('href'))?.replace(/^mailto:/, '');
    const accountId = /001[a-z0-9]{15}/i.exec(
      (await firstRow.getByRole('cell').nth(2).textContent()) ?? '',
    )?.[0];
    expect(contactId).toBeDefined();
    expect(email).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(accountId).toBeDefined();
    expect(await firstRow.getByRole('link', { name: email }).isVisible()).toBe(true);
    const reach = Number(
      ((await tab.getByText(/^[\d,]+ contacts?$/).textContent()) ?? '').replace(/\D/g, ''),
    );
    expect(reach).toBeGreaterThanOrEqual(rows);
    await screenshots(tab, 'campaign-audience-builder-report');
    // The contacts' ids and e-mails as a window shows them, at both widths.
    for (const size of ['desktop', 'mobile'] as const) {
      await tab.setViewportSize(viewports[size]);
      await table.scrollIntoViewIfNeeded();
      await screenshot(tab, `campaign-audience-builder-report-contacts-${size}`, { fullPage: false });
    }
    await tab.setViewportSize(viewports.desktop);

    // Paging, when there is more than a page.
    const next = tab.getByRole('button', { name: 'Next' });
    if ((await next.count()) > 0) {
      await next.click();
      await tab.waitForURL((url) => url.searchParams.get('page') === '2');
      await tab.getByText('Page 2 of', { exact: false }).waitFor();
      await tab.getByText(/^51–/).waitFor();
    }

    // Download CSV: a header row, then the contacts.
    const [download] = await Promise.all([
      tab.waitForEvent('download'),
      tab.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^[a-z0-9-]+\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.split(/\r?\n/).filter((line) => line !== '');
    // The ids and the e-mail first, for an e-mail tool or an import back into the CRM.
    expect(lines[0]).toBe(
      'Contact ID,Name,E-mail,Title,Account ID,Account,Industry,Sub-industry,Employees,Annual revenue,Last response,Responded on',
    );
    expect(lines).toHaveLength(reach + 1);
    // The report page's first contact is the file's first row.
    const [id, , mail, , account] = lines[1]!.split(',');
    expect([id, mail, account]).toEqual([contactId, email, accountId]);

    // Generating again, with a slow model: the loading state (text, progress, steps), then results.
    await tab.close();
    await script({
      kind: 'object',
      firstTokenDelayMs: 2_500,
      value: {
        explanation: 'Najczęściej odpowiadali dyrektorzy finansowi z branży spożywczej.',
        subIndustries: ['Food processing'],
        roles: [],
        titles: ['Finance Director'],
        workAreas: [],
        campaignIds: [],
        approach: 'Zaproś ich osobistym mailem od partnera.',
      },
    });
    await page.getByRole('button', { name: 'Generate Segments' }).click();
    await results(page)
      .getByText(/^Generating segments…/)
      .waitFor();
    expect(await results(page).getByRole('progressbar', { name: 'Generating segments' }).count()).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'campaign-audience-builder-loading-desktop');
    await results(page).getByText('Najczęściej odpowiadali dyrektorzy finansowi', { exact: false }).waitFor({
      timeout: 20_000,
    });
    expect(await idField.inputValue()).toBe(campaignId);

    expect(pageProblems(page)).toEqual([]);
    expect(tabProblems).toEqual([]);
  }, 90_000);
});

describe('Campaign audience builder: the AI analysis (issue 27, item 8)', () => {
  it('labels the Polish analysis, checks its figures, and shows the CRM’s numbers beside a wrong one', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page);
    await page.goto(path);
    const name = await pickLastYearsCampaign(page);
    await page.getByRole('textbox', { name: 'Marketing Goal' }).fill('Więcej dyrektorów finansowych');

    // A first answer (the stand-in's, without figures) gives the facts the bars show.
    const { facts } = await generate(page, name);
    const group = facts.bySubIndustry[0]!;
    const title = facts.byTitle[0]!;
    const right = `${group.responders} z ${membersOf(group)}`;
    // The model restates the bars' figures, but one: a title's rate it did not get from the CRM.
    await script({
      kind: 'object',
      value: {
        explanation:
          `W podbranży ${group.value} odpowiedziało ${right} uczestników ` +
          `(${share(group.responders, membersOf(group), ',')}), przy średniej kampanii ` +
          `${share(facts.responders, facts.members, ',')}. ` +
          `Na stanowisku ${title.value} odpowiedziało aż 99,9% zaproszonych.`,
        subIndustries: [group.value],
        roles: [],
        titles: [title.value],
        workAreas: [],
        campaignIds: [],
        approach: 'Zaproś ich osobistym e-mailem od partnera, a tydzień później przypomnij się na LinkedIn.',
      },
    });
    await generate(page, name);
    const analysis = results(page).getByRole('region', { name: 'AI analysis' });
    await analysis.getByText('99,9%').waitFor();

    // The language: a label, and lang="pl" on the model's text (the section's own words stay English).
    expect(await analysis.getByText('In Polish', { exact: true }).isVisible()).toBe(true);
    expect(await analysis.locator('[lang="pl"]').count()).toBe(2);
    expect(
      await analysis
        .getByRole('heading', { name: 'Explanation' })
        .locator('xpath=ancestor::*[@lang="pl"]')
        .count(),
    ).toBe(0);

    // A figure that matches: a check, and words for screen readers.
    expect(await analysis.getByText(`${right} (matches the CRM)`).count()).toBe(1);

    // The wrong figure: crossed out, the CRM's numbers beside it.
    const wrong = analysis.getByText('99,9%', { exact: true });
    expect(await wrong.evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('line-through');
    const fact =
      `CRM: ${title.value}, ${title.responders.toLocaleString('en-US')} of ` +
      `${membersOf(title).toLocaleString('en-US')} responded (${share(title.responders, membersOf(title), '.')})`;
    const beside = wrong.locator('xpath=following-sibling::span[1]');
    expect(((await beside.textContent()) ?? '').trim()).toBe(`does not match the ${fact}`);
    expect(await beside.getAttribute('lang')).toBe('en');
    expect(await beside.isVisible()).toBe(true);
    expect(await analysis.getByRole('note').textContent()).toContain(
      'GEM checked the figures against the CRM: 1 does not match (crossed out, with the CRM’s numbers beside it), 3 match',
    );

    // At both widths: what the section and the window show.
    await analysis.scrollIntoViewIfNeeded();
    await shotOf(analysis, 'campaign-audience-builder-analysis-desktop');
    await screenshot(page, 'campaign-audience-builder-analysis-window-desktop', { fullPage: false });
    await page.setViewportSize(viewports.mobile);
    await expectNoSidewaysScroll(page);
    await wrong.scrollIntoViewIfNeeded();
    expect(await beside.isVisible()).toBe(true);
    await shotOf(analysis, 'campaign-audience-builder-analysis-mobile');
    await screenshot(page, 'campaign-audience-builder-analysis-window-mobile', { fullPage: false });

    expect(pageProblems(page)).toEqual([]);
  }, 60_000);
});

describe('Campaign audience builder on the built-in stand-in (issue 27, item 13)', () => {
  let gem: RunningGem;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gem-e2e-audience-demo-'));
    // As `npm start` runs it on a fresh machine: no NODE_ENV, no GEM_AI_* setting.
    gem = await startGem({ GEM_DATA_DIR: join(dataDir, 'data'), GEM_LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await gem?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('marks the analysis as a demo answer, under the page’s demo notice', async () => {
    const page = await browser.open('desktop', gem.baseURL);
    await signInWithPopup(page);
    await page.goto(path);
    await page.getByRole('heading', { name: 'Demo answers: no AI service is configured' }).waitFor();
    const name = await pickLastYearsCampaign(page);
    await page.getByRole('textbox', { name: 'Marketing Goal' }).fill('Więcej dyrektorów finansowych');
    const answer = await generate(page, name);
    expect(answer.demo).toBe(true);
    const analysis = results(page).getByRole('region', { name: 'AI analysis' });
    expect(await analysis.getByText(DEMO_ANSWER_TEXT, { exact: true }).isVisible()).toBe(true);
    expect(await analysis.getByText('In Polish', { exact: true }).isVisible()).toBe(true);

    await analysis.scrollIntoViewIfNeeded();
    await shotOf(analysis, 'campaign-audience-builder-demo-desktop');
    await page.setViewportSize(viewports.mobile);
    await expectNoSidewaysScroll(page);
    await analysis.scrollIntoViewIfNeeded();
    await shotOf(analysis, 'campaign-audience-builder-demo-mobile');
    expect(pageProblems(page)).toEqual([]);
  }, 90_000);
});
