import { encodeQr } from '@/lib/qr/encode-qr';
import { computeQrLayout, paddingForQuietZone } from '@/lib/qr/qr-layout';
import { QR_DPI, QR_PADDING, QR_SIZE } from '@/lib/qr/qr-settings';
import { renderQrPng, renderQrSvg } from '@/lib/qr/render-qr';

export type PackQr = { png: Uint8Array; svg: string; size: number; padding: number; dpi: number };

/**
 * The campaign's QR code as the QR generator makes it, at its starting size and resolution
 * (200 pt, 300 DPI: ready for print), error correction L. The padding is the one the generator
 * suggests for the 4-module light border scanners need (its slider starts at none, and says to
 * add it), so the printed code scans wherever it is placed. Null when the target cannot be a QR
 * code (longer than a code holds).
 */
export async function buildPackQr(target: string): Promise<PackQr | null> {
  const encoded = encodeQr(target);
  if (!encoded.ok) return null;
  const size = QR_SIZE.initial;
  const dpi = QR_DPI.initial;
  const padding = paddingForQuietZone(encoded.matrix.size, size, dpi) ?? QR_PADDING.initial;
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
