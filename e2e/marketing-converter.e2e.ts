import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser } from './support/browser';
import { signInWithPopup } from './support/sign-in';

const browser = useBrowser();

// A BOM, header text, NOTE and STYLE blocks, a cue identifier, a short timestamp, cue
// settings, a voice tag, bold and entities: what Teams or YouTube exports.
const webinarVtt = [
  '\uFEFFWEBVTT - Q3 webinar',
  '',
  'NOTE Exported from the webinar platform',
  '',
  'STYLE',
  '::cue { color: yellow }',
  '',
  'intro',
  '00:01.000 --> 00:04.000 align:start position:10%',
  '<v Anna>Welcome to the <b>Q3</b> webinar &amp; Q&amp;A.</v>',
  '',
  '00:00:04.500 --> 00:00:07.250',
  'Zażółć gęślą jaźń.',
  '',
].join('\n');

// Checked by hand against spec §9: renumbered from 1, hh:mm:ss,mmm, tags and entities handled.
const webinarSrt = [
  '1',
  '00:00:01,000 --> 00:00:04,000',
  'Welcome to the <b>Q3</b> webinar & Q&A.',
  '',
  '2',
  '00:00:04,500 --> 00:00:07,250',
  'Zażółć gęślą jaźń.',
  '',
  '',
].join('\r\n');

// The second cue's timing has a comma where WebVTT wants a full stop.
const malformedVtt =
  'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nFine.\n\n00:00:03,000 --> 00:00:04.000\nOops.\n';

async function openConverter(page: Page) {
  await signInWithPopup(page);
  await page.goto('/tools/marketing-converter');
  await page.getByRole('heading', { level: 1, name: 'Marketing converter' }).waitFor();
}

function upload(page: Page, name: string, contents: string | Buffer) {
  return page.locator('input[type="file"]').setInputFiles({
    name,
    mimeType: name.endsWith('.vtt') ? 'text/vtt' : 'text/plain',
    buffer: typeof contents === 'string' ? Buffer.from(contents, 'utf8') : contents,
  });
}

const alert = (page: Page) => page.getByRole('alert');

describe('marketing converter (signed in)', () => {
  it('converts a WebVTT upload, previews it, downloads <base>_<lang>.srt and clears', async () => {
    const page = await browser.open('desktop');
    await openConverter(page);

    const converter = page.getByLabel('Converter');
    expect(await converter.locator('option').allTextContents()).toEqual(['VTT to SRT']);
    const language = page.getByLabel('Caption language');
    expect(await language.inputValue()).toBe('pl_PL');
    expect(
      await language.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(['pl_PL', 'en_US', 'de_DE', 'fr_FR']);
    expect(await page.getByRole('button', { name: 'Download SRT' }).isDisabled()).toBe(true);

    await upload(page, 'webinar.vtt', webinarVtt);
    const preview = page.getByLabel('Preview of webinar_pl_PL.srt');
    await preview.waitFor();
    // The preview shows the file as it will be saved (the browser shows CRLF as new lines).
    expect(await preview.textContent()).toBe(webinarSrt);
    await page.getByText('Saves as webinar_pl_PL.srt').waitFor();

    // The language goes into the file name.
    await language.selectOption('en_US');
    await page.getByText('Saves as webinar_en_US.srt').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'marketing-converter-desktop');

    const [file] = await Promise.all([
      page.waitForEvent('download') as Promise<Download>,
      page.getByRole('button', { name: 'Download SRT' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('webinar_en_US.srt');
    expect((await readFile(await file.path())).toString('utf8')).toBe(webinarSrt);

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('The SRT subtitles appear here once you upload a .vtt file.').waitFor();
    expect(await preview.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Download SRT' }).isDisabled()).toBe(true);
    expect(pageProblems(page)).toEqual([]);
  });

  it('refuses a file that is not .vtt, names the line of a malformed file, and refuses files over 20 MB', async () => {
    const page = await browser.open('desktop');
    await openConverter(page);

    await upload(page, 'notes.txt', 'Just some notes.');
    await alert(page).getByText('Please upload a valid VTT file.').waitFor();
    expect(await page.getByRole('button', { name: 'Download SRT' }).isDisabled()).toBe(true);

    await upload(page, 'broken.vtt', malformedVtt);
    await alert(page).getByText('This file cannot be converted').waitFor();
    expect(await alert(page).textContent()).toContain('Line 6:');
    expect(await page.getByRole('button', { name: 'Download SRT' }).isDisabled()).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'marketing-converter-error-desktop');

    // A good file afterwards converts as usual: the page did not get stuck.
    await upload(page, 'webinar.vtt', webinarVtt);
    await page.getByLabel('Preview of webinar_pl_PL.srt').waitFor();
    expect(await alert(page).count()).toBe(0);

    // 20 MB + 1 byte, made in the page: the size is checked before the file is read, and
    // sending 20 MB over the DevTools protocol would take most of this test's time.
    await page.locator('input[type="file"]').evaluate((input: HTMLInputElement) => {
      const files = new DataTransfer();
      files.items.add(new File([new Uint8Array(20 * 1024 * 1024 + 1)], 'huge.vtt', { type: 'text/vtt' }));
      input.files = files.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await alert(page).getByText('This file is too large').waitFor();
    expect(await page.getByRole('button', { name: 'Download SRT' }).isDisabled()).toBe(true);
    expect(pageProblems(page)).toEqual([]);
  });
});

async function checkHowToUse(page: Page, viewport: 'desktop' | 'mobile') {
  await page.goto('/how-to-use');
  await page.getByRole('heading', { level: 1, name: 'How to use GEM' }).waitFor();

  for (const tool of [
    'Article',
    'Social media post',
    'Paid ads',
    'Teaser',
    'Brief creator',
    'Campaign audience builder',
    'Competitor search',
    'QR code generator',
    'Marketing converter',
    'Visual brand checker',
    'Check text',
  ]) {
    expect(await page.getByRole('heading', { level: 3, name: new RegExp(tool, 'i') }).count()).toBe(1);
  }
  const limits = page.getByRole('table');
  for (const limit of ['600 characters', '18 letters and digits', 'WebVTT (.vtt) only', '300 DPI or more']) {
    await limits.getByText(limit).first().waitFor();
  }
  // The three access contacts, as on the Access Denied screen.
  const access = page.locator('#access');
  expect(await access.locator('a[href^="mailto:"]').count()).toBe(3);

  // Every tool's picture loads (they are lazy; load them all for the full-page shot).
  const pictures = await page.locator('article img').evaluateAll(async (images) => {
    await Promise.all(
      (images as HTMLImageElement[]).map((image) => {
        image.loading = 'eager';
        return image.decode().catch(() => undefined);
      }),
    );
    return (images as HTMLImageElement[]).map((image) => image.naturalWidth > 0);
  });
  expect(pictures).toEqual(Array.from({ length: 11 }, () => true));
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `how-to-use-${viewport}`);
}

describe('How to use, and both pages on a phone (signed in)', () => {
  it('covers every tool, its limits and whom to contact', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page);
    await checkHowToUse(page, 'desktop');
    expect(pageProblems(page)).toEqual([]);
  });

  it('fits a phone screen', async () => {
    const page = await browser.open('mobile');
    await openConverter(page);
    await upload(page, 'webinar.vtt', webinarVtt);
    await page.getByLabel('Preview of webinar_pl_PL.srt').waitFor();
    await screenshot(page, 'marketing-converter-mobile');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await checkHowToUse(page, 'mobile');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(pageProblems(page)).toEqual([]);
  });
});

function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
