import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LONG_TEST_MS } from './brief-creator-page';
import { useAiControl } from './support/ai-control';
import { pageProblems, screenshot, useBrowser } from './support/browser';
import { audit } from './support/axe';
import { campaignFromChat } from './support/campaign-from-chat';
import { signInWithPopup } from './support/sign-in';

// Campaigns (issue 29) in Chromium at 1440 × 900 and 390 × 844: a brief accepted in the chat
// becomes a campaign; it is listed and found in /campaigns, renamed, moved to Active, its brief
// edited as version 2, its activity read; a save made on an older version (another tab saved
// first) keeps the typed text. Both pages are checked with axe, as accessibility.e2e.ts checks
// every page.

const browser = useBrowser();
const { script } = useAiControl();

const widths = ['desktop', 'mobile'] as const;
type Width = (typeof widths)[number];

/** The whole page, from its top (else the header bar shows where the window was scrolled to). */
async function pageShot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const versionShown = (page: Page, version: number) =>
  page
    .getByRole('region', { name: 'Brief', exact: true })
    .getByText(`Version ${version}`, { exact: true })
    .waitFor();

describe.each(widths)('Campaigns at %s width (issue 29)', { timeout: LONG_TEST_MS }, (width: Width) => {
  it('a brief accepted in the chat becomes a campaign: listed, renamed, moved, its brief edited, its activity read', async () => {
    const page = await browser.open(width);
    await signInWithPopup(page);
    const name = `Campaign list webinar ${width}`;
    const path = await campaignFromChat(page, name, script);
    const found: string[] = [];

    // In the list, found by its name (accents and case aside) and by its filters.
    // The tools menu leads there (campaigns are no tool of the catalogue), as the navigation does.
    await page.goto('/tools');
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    if (width === 'desktop') {
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link', { name: 'Campaigns' }).getAttribute('href')).toBe('/campaigns');
      await screenshot(page, 'tools-campaigns-link-desktop', { fullPage: false });
    }
    await page.getByRole('link', { name: 'Open your campaigns' }).click();
    await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
    const card = page.getByRole('article', { name });
    await card.waitFor();
    expect(await card.innerText()).toContain('LinkedIn, Newsletter');
    expect(await card.innerText()).toContain('Planning');
    await pageShot(page, `campaigns-${width}`);
    found.push(...(await audit(page, `campaigns (${width})`)));
    await page.getByLabel('Search by name').fill(`CAMPAIGN list WEBINAR ${width}`);
    await page.getByLabel('Status').selectOption('planning');
    await page.getByLabel('Owner').selectOption('me');
    await page.getByLabel('Campaign type').selectOption('Webinar');
    await page.waitForURL(
      (url) =>
        url.searchParams.get('q') === `CAMPAIGN list WEBINAR ${width}` &&
        url.searchParams.get('status') === 'planning' &&
        url.searchParams.get('owner') === 'me' &&
        url.searchParams.get('type') === 'Webinar',
    );
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await pageShot(page, `campaigns-filtered-${width}`);
    await card.getByRole('link', { name }).click();
    await page.waitForURL((url) => url.pathname === path);

    // Renamed in place.
    await page.getByRole('button', { name: 'Rename' }).click();
    const renamed = `${name} (renamed)`;
    await page.getByLabel('Campaign name').fill(renamed);
    await page.getByLabel('Campaign name').press('Enter');
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    await expect.poll(() => page.title()).toBe(`${renamed} · GEM`);

    // Moved to Active.
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.ok());
    await page.getByLabel('Status', { exact: true }).selectOption('active');
    await saved;

    // The brief edited: version 2, with the fields it changed.
    const brief = page.getByRole('region', { name: 'Brief', exact: true });
    await brief.getByRole('button', { name: 'Edit brief' }).click();
    await brief.getByLabel('Budget').fill('75 000 PLN');
    await brief.getByLabel('Channels').fill('LinkedIn\nNewsletter\nEvents');
    await pageShot(page, `campaign-brief-editing-${width}`);
    await brief.getByRole('button', { name: 'Save brief' }).click();
    await versionShown(page, 2);
    expect(await brief.innerText()).toContain('75 000 PLN');
    const versions = page.getByRole('region', { name: 'Brief versions' });
    await versions.getByRole('article', { name: 'Version 2' }).waitFor();
    expect(await versions.getByRole('article', { name: 'Version 2' }).innerText()).toContain(
      'Changed: Budget, Channels',
    );

    // The activity, once opened: every change, newest first.
    await page.getByRole('button', { name: 'Show activity' }).click();
    const activity = page.getByRole('list', { name: 'Activity' });
    await activity.getByText('Brief saved').waitFor();
    const lines = await activity.getByRole('listitem').allInnerTexts();
    expect(lines.map((line) => line.split(/ ·|\n/)[0])).toEqual([
      'Brief saved',
      'Status changed',
      'Renamed',
      'Created',
    ]);
    expect(lines[1]).toContain('Planning → Active');
    await pageShot(page, `campaign-${width}`);
    await activity.scrollIntoViewIfNeeded();
    await screenshot(page, `campaign-activity-${width}`, { fullPage: false });
    found.push(...(await audit(page, `campaign (${width})`)));

    if (found.length > 0) console.error(`axe found:\n${found.join('\n')}`);
    expect(found).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('keeps the typed brief when another tab saved a newer version first, then saves it on top', async () => {
    const page = await browser.open(width);
    await signInWithPopup(page);
    const name = `Autumn ESG Report ${width}`;
    const path = await campaignFromChat(page, name, script);

    // Another tab of the same user saves version 2 while this one edits version 1.
    const other = await page.context().newPage();
    await other.goto(path);
    const mine = page.getByRole('region', { name: 'Brief', exact: true });
    const theirs = other.getByRole('region', { name: 'Brief', exact: true });
    await mine.getByRole('button', { name: 'Edit brief' }).click();
    await mine.getByLabel('Budget').fill('Mine: 80 000 PLN');
    await theirs.getByRole('button', { name: 'Edit brief' }).click();
    await theirs.getByLabel('Budget').fill('Theirs: 40 000 PLN');
    await theirs.getByRole('button', { name: 'Save brief' }).click();
    await versionShown(other, 2);
    await other.close();

    await mine.getByRole('button', { name: 'Save brief' }).click();
    const conflict = mine.getByRole('alert');
    await conflict.getByText(/saved version 2 of this brief while you were editing version 1/).waitFor();
    expect(await mine.getByLabel('Budget').inputValue()).toBe('Mine: 80 000 PLN');
    await conflict.getByRole('button', { name: 'Compare with version 2' }).click();
    const comparison = conflict.getByRole('group', { name: 'Version 2 and yours' });
    expect(await comparison.innerText()).toContain('Theirs: 40 000 PLN');
    expect(await comparison.innerText()).toContain('Mine: 80 000 PLN');
    // The notice comes into view by itself, below the header bar (Save was at the form's foot).
    await expect
      .poll(() =>
        conflict.evaluate((el) => {
          const top = el.getBoundingClientRect().top;
          return top >= document.querySelector('header')!.getBoundingClientRect().bottom && top < innerHeight;
        }),
      )
      .toBe(true);
    await screenshot(page, `campaign-brief-conflict-${width}`, { fullPage: false });
    const found = await audit(page, `campaign conflict (${width})`);

    await conflict.getByRole('button', { name: 'Save mine as version 3' }).click();
    await versionShown(page, 3);
    expect(await mine.innerText()).toContain('Mine: 80 000 PLN');
    if (found.length > 0) console.error(`axe found:\n${found.join('\n')}`);
    expect(found).toEqual([]);
    // The refused save is the one error the browser logs.
    expect(pageProblems(page).filter((p) => !p.includes('409 (Conflict)'))).toEqual([]);
  });
});
