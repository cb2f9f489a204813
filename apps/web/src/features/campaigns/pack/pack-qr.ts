import type { QrSettings } from '@gem/contracts/qr-settings';

import { encodeQr } from '@/lib/qr/encode-qr';
import { computeQrLayout, paddingForQuietZone } from '@/lib/qr/qr-layout';
import { QR_DPI, QR_PADDING, QR_SIZE } from '@/lib/qr/qr-settings';
import { renderQrPng, renderQrSvg } from '@/lib/qr/render-qr';

export type PackQr = { png: Uint8Array; svg: string } & QrSettings;

/**
 * The settings a campaign's QR code is made with when it keeps none: the QR generator's starting
 * size and resolution (200 pt, 300 DPI: ready for print) and the padding the generator suggests
 * for the 4-module light border scanners need (its slider starts at none, and says to add it),
 * so the printed code scans wherever it is placed. Null when the target cannot be a QR code.
 */
export function defaultQrSettings(target: string): QrSettings | null {
  const encoded = encodeQr(target);
  if (!encoded.ok) return null;
  const size = QR_SIZE.initial;
  const dpi = QR_DPI.initial;
  const padding = paddingForQuietZone(encoded.matrix.size, size, dpi) ?? QR_PADDING.initial;
  return { size, padding, dpi };
}

/**
 * The campaign's QR code as the QR generator makes it (error correction L), with the settings
 * the campaign keeps, or the defaults. Null when the target cannot be a QR code (longer than a
 * code holds) or does not fit those settings.
 */
export async function buildPackQr(target: string, settings: QrSettings | null): Promise<PackQr | null> {
  const encoded = encodeQr(target);
  const chosen = settings ?? defaultQrSettings(target);
  if (!encoded.ok || !chosen) return null;
  const { size, padding, dpi } = chosen;
  const layout = computeQrLayout(encoded.matrix.size, size, padding, dpi);
  if (!layout.fits) return null;
  return {
    png: await renderQrPng(encoded.matrix, layout, dpi),
    svg: renderQrSvg(encoded.matrix, layout, size, padding),
    size,
    padding,
    dpi,
  };
}
