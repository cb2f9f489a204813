import { strFromU8, unzipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LONG_TEST_MS } from './brief-creator-page';
import { useAiControl } from './support/ai-control';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { audit } from './support/axe';
import { campaignFromChat } from './support/campaign-from-chat';
import { signInWithPopup } from './support/sign-in';

// A campaign's audience (issue 29) in Chromium against the embedded demo CRM: the campaign gets a
// CRM campaign id (one of the audience builder's recent campaigns), opens the audience builder
// with that id and the brief's objective filled in, generates segments (the e2e AI test server
// answers), saves a report to the campaign; back on the campaign, the dry run, the addition,
// and a second dry run that finds nobody left to add. Screenshots at 1440 and 390 px, axe at both.

const browser = useBrowser();
const { script } = useAiControl();

/** One of last year's campaigns (they have responses) from the audience builder's picker: its id. */
async function lastYearsCrmCampaign(page: Page): Promise<string> {
  await page.goto('/tools/campaign-audience-builder');
  const picker = page.getByRole('region', { name: 'Recent campaigns' });
  // The demo CRM fills itself on first use.
  await picker
    .getByRole('list', { name: 'Recent campaigns' })
    .getByRole('button')
    .first()
    .waitFor({ timeout: 30_000 });
  const word = String(new Date().getFullYear() - 1);
  await picker.getByRole('searchbox', { name: 'Search campaigns' }).fill(word);
  const matching = picker.getByRole('list', { name: `Campaigns matching ${word}` }).getByRole('button');
  await expect
    .poll(
      async () => {
        const texts = await matching.allTextContents();
        return texts.length > 0 && texts.every((text) => text.includes(word));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  await matching.first().click();
  const id = await page.getByRole('textbox', { name: 'Campaign ID' }).inputValue();
  expect(id).toMatch(/^[A-Z0-9]{18}$/i);
  return id;
}

/** The page at 1440 and at 390 px, from its top or with `target` in view; axe at both. */
async function shots(page: Page, name: string, found: string[], target?: ReturnType<Page['getByRole']>) {
  for (const [width, size] of [
    ['1440', viewports.desktop],
    ['390', viewports.mobile],
  ] as const) {
    await page.setViewportSize(size);
    if (target) await target.scrollIntoViewIfNeeded();
    else await page.evaluate(() => window.scrollTo(0, 0));
    // The page never scrolls sideways: whatever is wide scrolls inside its own box.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
        message: `${name} at ${width} px scrolls sideways`,
      })
      .toBeLessThanOrEqual(0);
    await screenshot(page, `${name}-${width}`, { fullPage: !target });
    found.push(...(await audit(page, `${name} (${width})`)));
  }
  await page.setViewportSize(viewports.desktop);
}

describe('A campaign’s audience (issue 29)', { timeout: 3 * LONG_TEST_MS }, () => {
  it('a segment saved from the audience builder is added to the CRM campaign: dry run, confirm, nobody twice', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page);
    const found: string[] = [];
    const crmId = await lastYearsCrmCampaign(page);
    const name = 'Audience CFO Webinar';
    const campaignPath = await campaignFromChat(page, name, script);
    const audience = page.getByRole('region', { name: 'Audience', exact: true });
    // No CRM campaign yet: the section says so and leads to the setting.
    await audience.getByText(/No CRM campaign yet/).waitFor();
    await audience.getByRole('link', { name: 'Set its CRM campaign ID in the settings' }).click();
    const crmField = page.getByRole('textbox', { name: 'CRM campaign ID' });
    await expect.poll(() => crmField.evaluate((el) => el === document.activeElement)).toBe(true);
    await crmField.fill(crmId);
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.ok());
    await page.getByRole('button', { name: 'Save CRM campaign ID' }).click();
    await saved;
    await audience.getByText(/Targets the CRM campaign/).waitFor();
    await shots(page, 'campaign-audience-empty', found, audience);
    // The audience builder, opened from the campaign, with its CRM id and objective filled in.
    await audience.getByRole('link', { name: 'Open the audience builder' }).click();
    await page.waitForURL((url) => url.pathname === '/tools/campaign-audience-builder');
    expect(await page.getByRole('textbox', { name: 'Campaign ID' }).inputValue()).toBe(crmId);
    expect(await page.getByRole('textbox', { name: 'Marketing Goal' }).inputValue()).toBe(
      'Win 40 qualified leads among CFOs.',
    );
    await page.getByText(`Building the audience of ${name}`).waitFor();
    await page.getByRole('button', { name: 'Generate Segments' }).click();
    const reports = page.getByRole('region', { name: 'Segments' }).getByRole('region', { name: 'Reports' });
    const prospects = reports.getByRole('region', { name: 'New prospects' }).getByRole('article').first();
    await prospects.waitFor({ timeout: 30_000 });
    const title = ((await prospects.getByRole('heading', { level: 5 }).textContent()) ?? '').trim();
    const save = prospects.getByRole('button', { name: `Save to campaign: ${title}` });
    await save.click();
    const toast = page.getByText(`Saved “${title}” to “${name}”.`);
    await toast.waitFor();
    expect(await page.getByRole('link', { name: 'Open the campaign' }).getAttribute('href')).toBe(
      campaignPath,
    );
    await prospects.getByRole('button', { name: `Saved to campaign: ${title}` }).waitFor();
    await shots(page, 'campaign-audience-builder-save', found, prospects);
    // Back on the campaign (the toast has gone by now): the segment is there.
    await page.getByRole('link', { name: 'Back to the campaign' }).click();
    await page.waitForURL((url) => url.pathname === campaignPath);
    const segment = audience.getByRole('listitem', { name: title });
    await segment.waitFor();
    expect(await segment.innerText()).toContain('saved by');
    // Before they are added, the pack hands the segment's contacts over as CSV, read from the CRM
    // as it stands (new prospects: those not in the CRM campaign yet).
    const handover = page.getByRole('region', { name: 'Hand it over' });
    const download = page.waitForEvent('download');
    await handover.getByRole('button', { name: 'Download pack' }).click();
    const zip = await download;
    await handover.getByText(/the audience of 1 segment/).waitFor({ timeout: 30_000 });
    const files = unzipSync(new Uint8Array(await readFile((await zip.path())!)));
    const csvName = Object.keys(files).find((name) => name.startsWith('audience/'));
    expect(csvName).toMatch(/^audience\/.+\.csv$/);
    const lines = strFromU8(files[csvName!]!)
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Contact ID,Name,E-mail,/);
    expect(lines.length).toBeGreaterThan(1);

    await segment.getByRole('button', { name: 'Add to CRM campaign' }).click();
    const dryRun = segment.getByText(/^Dry run: /);
    await dryRun.waitFor({ timeout: 20_000 });
    const counts = /^Dry run: ([\d,]+) contacts?: ([\d,]+) new, ([\d,]+) already/.exec(
      (await dryRun.textContent()) ?? '',
    );
    expect(counts).not.toBeNull();
    const [total, fresh] = [Number(counts![1]!.replace(/,/g, '')), Number(counts![2]!.replace(/,/g, ''))];
    expect(total).toBeGreaterThan(0);
    expect(fresh).toBeGreaterThan(0);
    await shots(page, 'campaign-audience-dry-run', found, segment);
    await segment.getByRole('button', { name: /^Add [\d,]+ contacts? to / }).click();
    const result = segment.getByText(/^Added [\d,]+ contacts? · /);
    await result.waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toMatch(
      new RegExp(`^Added ${fresh.toLocaleString('en-US')} contacts? · `),
    );
    const runs = audience.getByRole('region', { name: 'Added to the CRM campaign' });
    await runs.waitFor();
    expect(await runs.getByRole('row').count()).toBe(2);
    await shots(page, 'campaign-audience-added', found, audience);
    // Again: nobody is left to add.
    await segment.getByRole('button', { name: 'Done' }).click();
    await segment.getByRole('button', { name: 'Add to CRM campaign' }).click();
    await segment.getByText(/^Dry run: [\d,]+ contacts?: 0 new, /).waitFor({ timeout: 20_000 });
    await segment.getByText('Nothing to add: every contact is already a member.').waitFor();
    expect(await segment.getByRole('button', { name: /^Add [\d,]+ contacts? to / }).count()).toBe(0);

    if (found.length > 0) console.error(`axe found:\n${found.join('\n')}`);
    expect(found).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });
});
