import type { QrMatrix } from './encode-qr';
import type { QrLayout } from './qr-layout';
import { encodeBilevelPng } from './png';

/** The print-ready PNG: black modules on white, edgePx square, with the pHYs of `dpi`. */
export async function renderQrPng(matrix: QrMatrix, layout: QrLayout, dpi: number): Promise<Uint8Array> {
  const { edgePx, modulePx, offsetPx } = layout;
  const rowBytes = 1 + Math.ceil(edgePx / 8);
  const scanlines = new Uint8Array(rowBytes * edgePx).fill(0xff);
  for (let y = 0; y < edgePx; y += 1) scanlines[y * rowBytes] = 0; // filter type None

  for (let row = 0; row < matrix.size; row += 1) {
    // Draw one pixel row of this module row, then copy it modulePx − 1 times.
    const first = (offsetPx + row * modulePx) * rowBytes;
    const line = scanlines.subarray(first, first + rowBytes);
    for (let column = 0; column < matrix.size; column += 1) {
      if (!matrix.isDark(row, column)) continue;
      const x0 = offsetPx + column * modulePx;
      for (let x = x0; x < x0 + modulePx; x += 1) line[1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    for (let copy = 1; copy < modulePx; copy += 1) scanlines.set(line, first + copy * rowBytes);
  }
  return encodeBilevelPng({ width: edgePx, height: edgePx, scanlines, dpi });
}

/**
 * The dark modules as one SVG path in the PNG's pixel grid (one rectangle per horizontal run),
 * so the preview, the PNG and the SVG download show the same thing.
 */
export function qrSvgPath(matrix: QrMatrix, layout: QrLayout): string {
  const { modulePx: m, offsetPx } = layout;
  let d = '';
  for (let row = 0; row < matrix.size; row += 1) {
    let column = 0;
    while (column < matrix.size) {
      if (!matrix.isDark(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < matrix.size && matrix.isDark(row, column)) column += 1;
      const width = (column - start) * m;
      d += `M${offsetPx + start * m} ${offsetPx + row * m}h${width}v${m}h-${width}z`;
    }
  }
  return d;
}

/**
 * A standalone SVG for print: the same layout as the PNG, sized in points so it prints at
 * (size + 2 × padding) / 72 inches whatever the resolution.
 */
export function renderQrSvg(matrix: QrMatrix, layout: QrLayout, size: number, padding: number): string {
  const { edgePx } = layout;
  const points = size + 2 * padding;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${points}pt" height="${points}pt" viewBox="0 0 ${edgePx} ${edgePx}" shape-rendering="crispEdges">`,
    `<rect width="${edgePx}" height="${edgePx}" fill="#ffffff"/>`,
    `<path fill="#000000" d="${qrSvgPath(matrix, layout)}"/>`,
    '</svg>',
    '',
  ].join('\n');
}
