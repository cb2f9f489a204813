import fc from 'fast-check';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';

import { encodeQr, type QrMatrix } from './encode-qr';
import { crc32, dpiToPixelsPerMetre } from './png';
import { computeQrLayout } from './qr-layout';
import { QR_DPI, QR_PADDING, QR_SIZE } from './qr-settings';
import { renderQrPng } from './render-qr';

type Chunk = { type: string; data: Uint8Array; crcOk: boolean };

/** Reads a PNG's chunks, checking each CRC (an independent reader, not the encoder's code). */
function readChunks(png: Uint8Array): Chunk[] {
  expect(Array.from(png.subarray(0, 8))).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: Chunk[] = [];
  for (let at = 8; at < png.length;) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    const crcOk = view.getUint32(at + 8 + length) === crc32(png.subarray(at + 4, at + 8 + length));
    chunks.push({ type, data, crcOk });
    at += 12 + length;
  }
  return chunks;
}

function physicalDpi(png: Uint8Array): { x: number; y: number; unit: number } {
  const phys = readChunks(png).find((c) => c.type === 'pHYs')!;
  const view = new DataView(phys.data.buffer, phys.data.byteOffset, phys.data.byteLength);
  return { x: view.getUint32(0) * 0.0254, y: view.getUint32(4) * 0.0254, unit: phys.data[8]! };
}

async function render(text: string, size: number, padding: number, dpi: number) {
  const encoded = encodeQr(text);
  if (!encoded.ok) throw new Error(encoded.message);
  const layout = computeQrLayout(encoded.matrix.size, size, padding, dpi);
  const png = await renderQrPng(encoded.matrix, layout, dpi);
  return { png, layout, matrix: encoded.matrix, image: PNG.sync.read(Buffer.from(png)) };
}

/** Decodes the PNG's pixels, placed on white paper as a printed code would be. */
function decode(image: PNG, margin: number): string | null {
  const width = image.width + 2 * margin;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let y = 0; y < image.height; y += 1) {
    const from = y * image.width * 4;
    pixels.set(image.data.subarray(from, from + image.width * 4), ((y + margin) * width + margin) * 4);
  }
  const result = jsQR(pixels, width, width, { inversionAttempts: 'dontInvert' });
  if (!result) return null;
  const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(result.binaryData));
  expect(result.data).toBe(text);
  return text;
}

const isDarkPixel = (image: PNG, x: number, y: number) => image.data[(y * image.width + x) * 4] === 0;

describe('the QR PNG decodes back to the exact text', () => {
  const thousand = Array.from({ length: 1000 }, (_, i) => 'Zażółć gęślą jaźń 0123456789 QR '[i % 32]).join(
    '',
  );
  it.each([
    ['a URL', 'https://www.example.com/events/2025/webinar?utm_source=qr&utm_medium=print#register'],
    ['Polish diacritics', 'Zażółć gęślą jaźń — ŻÓŁW, źdźbło, łódź. Ćma? Ńo!'],
    ['emoji', 'Join us 🎉🚀 at the webinar 👩‍💼 — see you there! 🇵🇱'],
    ['1,000 characters', thousand],
    ['text with line breaks and spaces', '  Line one\nLine two\r\n\ttabbed  '],
  ])('%s', async (_name, text) => {
    expect(text.length).toBeGreaterThan(0);
    const { image, layout } = await render(text, 250, 16, 150);
    expect(layout.modulePx).toBeGreaterThanOrEqual(2);
    expect(decode(image, 0)).toBe(text);
  });

  it('the 1,000-character text is exactly 1,000 characters', () => {
    expect(thousand).toHaveLength(1000);
  });

  it('decodes at the default settings (padding 0) once the code sits on white paper', async () => {
    const { image, layout } = await render('https://gem.example.com', QR_SIZE.initial, 0, QR_DPI.initial);
    expect(image.width).toBe(833);
    expect(decode(image, 4 * layout.modulePx)).toBe('https://gem.example.com');
  });
});

describe('pixel size, whole-pixel modules and pHYs across the slider ranges', () => {
  const sizes = range(QR_SIZE.min, QR_SIZE.max, QR_SIZE.step);
  const paddings = range(QR_PADDING.min, QR_PADDING.max, QR_PADDING.step);
  const dpis = range(QR_DPI.min, QR_DPI.max, QR_DPI.step);

  it('lays out every slider combination: edge = round((size + 2 × padding) × dpi / 72)', () => {
    // Over a million layouts, so the checks collect failures instead of calling expect each time.
    const failures: string[] = [];
    // 21 modules (version 1), 57 (version 10) and 177 (version 40).
    for (const modules of [21, 57, 177]) {
      for (const size of sizes) {
        for (const padding of paddings) {
          for (const dpi of dpis) {
            const layout = computeQrLayout(modules, size, padding, dpi);
            const symbolLength = (size * dpi) / 72;
            const right = layout.edgePx - layout.offsetPx - layout.symbolPx;
            const ok =
              layout.edgePx === Math.round(((size + 2 * padding) * dpi) / 72) &&
              (layout.fits
                ? Number.isInteger(layout.modulePx) &&
                  // the largest whole module that fits the symbol's length…
                  layout.symbolPx <= symbolLength &&
                  (layout.modulePx + 1) * modules > symbolLength &&
                  // …and the remainder is margin, split evenly (the odd pixel right and below)
                  right - layout.offsetPx >= 0 &&
                  right - layout.offsetPx <= 1
                : symbolLength < modules);
            if (!ok) failures.push(`${modules} modules, size ${size}, padding ${padding}, ${dpi} DPI`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('records every DPI from 72 to 600 in pHYs so that it reads back exactly', () => {
    for (const dpi of dpis) expect(Math.round(dpiToPixelsPerMetre(dpi) * 0.0254)).toBe(dpi);
  });

  it('writes PNGs of that edge, with that pHYs, valid CRCs and the modules in place', async () => {
    const corners = [
      [QR_SIZE.min, QR_PADDING.min, QR_DPI.min],
      [QR_SIZE.max, QR_PADDING.max, QR_DPI.max],
      [QR_SIZE.min, QR_PADDING.max, QR_DPI.max],
      [QR_SIZE.max, QR_PADDING.min, QR_DPI.min],
      [QR_SIZE.initial, QR_PADDING.initial, QR_DPI.initial],
    ];
    const samples = fc.sample(
      fc.tuple(fc.constantFrom(...sizes), fc.constantFrom(...paddings), fc.integer({ min: 72, max: 600 })),
      { numRuns: 6, seed: 6 },
    );
    for (const [size, padding, dpi] of [...corners, ...samples] as Array<[number, number, number]>) {
      const { png, image, layout, matrix } = await render(
        'https://www.example.com/q3-webinar',
        size,
        padding,
        dpi,
      );
      const label = `size ${size}, padding ${padding}, ${dpi} DPI`;
      expect(image.width, label).toBe(Math.round(((size + 2 * padding) * dpi) / 72));
      expect(image.height, label).toBe(image.width);
      const chunks = readChunks(png);
      expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'pHYs', 'IDAT', 'IEND']);
      expect(chunks.every((c) => c.crcOk)).toBe(true);
      const phys = physicalDpi(png);
      expect(Math.round(phys.x), label).toBe(dpi);
      expect(Math.round(phys.y), label).toBe(dpi);
      expect(phys.unit).toBe(1);
      expectModulesInPlace(image, matrix, layout);
    }
  }, 60_000);
});

function expectModulesInPlace(image: PNG, matrix: QrMatrix, layout: ReturnType<typeof computeQrLayout>) {
  const { offsetPx, modulePx, symbolPx } = layout;
  for (let row = 0; row < matrix.size; row += 1) {
    for (let column = 0; column < matrix.size; column += 1) {
      // Both corners of every module carry its colour: modules are whole pixels.
      const x = offsetPx + column * modulePx;
      const y = offsetPx + row * modulePx;
      const dark = matrix.isDark(row, column);
      expect(isDarkPixel(image, x, y)).toBe(dark);
      expect(isDarkPixel(image, x + modulePx - 1, y + modulePx - 1)).toBe(dark);
    }
  }
  // The margin is light all round.
  for (const at of [offsetPx - 1, offsetPx + symbolPx]) {
    if (at < 0 || at >= image.width) continue;
    for (let i = 0; i < image.width; i += 7) {
      expect(isDarkPixel(image, at, i)).toBe(false);
      expect(isDarkPixel(image, i, at)).toBe(false);
    }
  }
}

function range(min: number, max: number, step: number): number[] {
  return Array.from({ length: Math.floor((max - min) / step) + 1 }, (_, i) => min + i * step);
}
