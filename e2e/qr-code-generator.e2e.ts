import { readFile } from 'node:fs/promises';
import jsQR from 'jsqr';
import type { Download, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser } from './support/browser';

const browser = useBrowser();

// Polish letters and an emoji: the code must hold the UTF-8 text exactly as typed.
const text = 'https://www.example.com/wydarzenia/webinar-zażółć?utm_source=plakat 🎉';

/** The PNG's pixels on white paper, decoded; the text of the code, or null. */
function decodeQr(image: PNG, margin = 16): string | null {
  const width = image.width + 2 * margin;
  const height = image.height + 2 * margin;
  const pixels = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let y = 0; y < image.height; y += 1) {
    const row = image.data.subarray(y * image.width * 4, (y + 1) * image.width * 4);
    pixels.set(row, ((y + margin) * width + margin) * 4);
  }
  const result = jsQR(pixels, width, height, { inversionAttempts: 'dontInvert' });
  return result ? new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(result.binaryData)) : null;
}

/** The pHYs chunk as dots per inch (PNG stores pixels per metre). */
function pngDpi(png: Buffer): number | null {
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'pHYs') {
      expect(png[at + 16]).toBe(1); // unit: metre
      expect(png.readUInt32BE(at + 12)).toBe(png.readUInt32BE(at + 8));
      return Math.round(png.readUInt32BE(at + 8) * 0.0254);
    }
    at += 12 + length;
  }
  return null;
}

async function download(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([
    page.waitForEvent('download') as Promise<Download>,
    page.getByRole('button', { name: button }).click(),
  ]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

const slider = (page: Page, name: string) => page.getByRole('slider', { name });

describe('QR code generator (signed out)', () => {
  it('makes a print-ready PNG and an SVG that scan back to the text', async () => {
    const page = await browser.open('desktop');
    await page.goto('/tools/qr-code-generator');
    await page.getByRole('heading', { level: 1, name: 'QR code generator' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/tools/qr-code-generator');

    // Nothing typed yet: the spec's message, and nothing to download.
    await page.getByText('Please enter text to generate a QR code').waitFor();
    expect(await page.getByRole('button', { name: 'Prepare for Download' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Download SVG' }).isDisabled()).toBe(true);

    // The sliders' ranges and defaults (spec §9), and the print note under the resolution.
    for (const [name, min, max, step, value] of [
      ['Size', '100', '500', '10', '200'],
      ['Padding', '0', '64', '4', '0'],
      ['Resolution', '72', '600', '1', '300'],
    ] as const) {
      const input = slider(page, name);
      expect([
        await input.getAttribute('min'),
        await input.getAttribute('max'),
        await input.getAttribute('step'),
        await input.inputValue(),
      ]).toEqual([min, max, step, value]);
    }
    await page.getByText('300 DPI or more is recommended for print').first().waitFor();

    await page.getByLabel('Text or link').fill(text);
    await page.getByRole('img', { name: /^QR code for: / }).waitFor();
    await page.getByText('Error correction L').waitFor();
    // Padding 0: the code has no quiet zone of its own, and the page says so.
    await page.getByText(/The quiet zone is/).waitFor();

    // Move the sliders with the keyboard, as a user would: size 150, padding 16, 150 DPI.
    await slider(page, 'Size').focus();
    for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowLeft');
    await slider(page, 'Padding').focus();
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    await slider(page, 'Resolution').fill('150');
    expect(await slider(page, 'Size').inputValue()).toBe('150');
    expect(await slider(page, 'Padding').inputValue()).toBe('16');
    expect(await slider(page, 'Resolution').inputValue()).toBe('150');
    const edge = Math.round(((150 + 2 * 16) * 150) / 72); // 379
    await page.getByText(`${edge} × ${edge} px`).waitFor();
    // Below 300 DPI the note says the PNG is for screens.
    await page.getByText(/Below that, use the PNG on screens only/).waitFor();

    await page.getByRole('button', { name: 'Prepare for Download' }).click();
    await page.getByRole('button', { name: 'Download QR Code' }).waitFor();
    // The header is sticky: scroll back up so the full-page shot shows it once, at the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'qr-code-generator-desktop');

    const png = await download(page, 'Download QR Code');
    expect(png.name).toMatch(/^qr-www-example-com-wydarzenia.*\.png$/);
    const image = PNG.sync.read(png.bytes);
    expect([image.width, image.height]).toEqual([edge, edge]);
    expect(pngDpi(png.bytes)).toBe(150);
    expect(decodeQr(image)).toBe(text);

    // Any change clears the prepared image.
    await slider(page, 'Size').focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('button', { name: 'Prepare for Download' }).waitFor();
    expect(await page.getByRole('button', { name: 'Download QR Code' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Prepare for Download' }).click();
    await page.getByRole('button', { name: 'Download QR Code' }).waitFor();
    await page.getByLabel('Text or link').press('End');
    await page.getByLabel('Text or link').pressSequentially('!');
    await page.getByRole('button', { name: 'Prepare for Download' }).waitFor();

    // A wide padding gives the 4-module quiet zone, and the warning goes.
    await slider(page, 'Padding').fill('64');
    await page.getByRole('img', { name: /^QR code for: / }).waitFor();
    expect(await page.getByText(/The quiet zone is/).count()).toBe(0);

    // The SVG is sized in points, so it prints at (size + 2 × padding) / 72 inches.
    const svg = await download(page, 'Download SVG');
    expect(svg.name).toMatch(/\.svg$/);
    const markup = svg.bytes.toString('utf8');
    expect(markup).toContain(`width="${160 + 2 * 64}pt"`);
    // Drawn by the browser on its own, it scans back to the text.
    const viewer = await browser.open('desktop');
    await viewer.setContent(
      `<body style="margin:0;background:#fff">${markup.replace(/^<\?xml[^>]*>/, '')}</body>`,
    );
    const drawn = PNG.sync.read(await viewer.locator('svg').screenshot());
    expect(decodeQr(drawn)).toBe(`${text}!`);

    // Emptying the text brings the message back and disables the downloads.
    await page.getByLabel('Text or link').fill('   ');
    await page.getByText('Please enter text to generate a QR code').waitFor();
    expect(await page.getByRole('button', { name: 'Download SVG' }).isDisabled()).toBe(true);
    expect(pageProblems(page)).toEqual([]);
  });

  it('keeps what was typed and moved before the page came alive', async () => {
    // The page is prerendered, so on a slow connection it can be used before its code has run.
    // Hold every script until the text is typed and a slider moved, then let React take over.
    const page = await browser.open('desktop');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/tools/qr-code-generator', { waitUntil: 'commit' });
    await page.getByLabel('Text or link').fill('https://www.example.com/before');
    await slider(page, 'Resolution').fill('150');
    expect(await page.getByRole('img', { name: /^QR code for: / }).count()).toBe(0);
    release();

    await page.getByRole('img', { name: 'QR code for: https://www.example.com/before' }).waitFor();
    expect(await page.getByLabel('Text or link').inputValue()).toBe('https://www.example.com/before');
    expect(await slider(page, 'Resolution').inputValue()).toBe('150');
    const edge = Math.round((200 * 150) / 72); // size 200, padding 0, 150 DPI
    await page.getByText(`${edge} × ${edge} px`).waitFor();
    // Typing on goes on from there.
    await page.getByLabel('Text or link').press('End');
    await page.getByLabel('Text or link').pressSequentially('/q4');
    await page.getByRole('img', { name: 'QR code for: https://www.example.com/before/q4' }).waitFor();
    expect(pageProblems(page)).toEqual([]);
  });

  it('fits a phone screen', async () => {
    const page = await browser.open('mobile');
    await page.goto('/tools/qr-code-generator');
    await page.getByLabel('Text or link').fill('https://www.example.com/q3');
    await page.getByRole('img', { name: /^QR code for: / }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'qr-code-generator-mobile');
    expect(pageProblems(page)).toEqual([]);
  });
});
