import { QR_PADDING, QUIET_ZONE_MODULES } from './qr-settings';

export type QrLayout = {
  /** The PNG's width and height: round((size + 2 × padding) × dpi / 72). */
  edgePx: number;
  /** Pixels per module: whole, so every module is sharp. */
  modulePx: number;
  /** The symbol's own width in pixels (modules × modulePx). */
  symbolPx: number;
  /** Light pixels left and above the symbol; right and below get the rest. */
  offsetPx: number;
  /** The narrowest light margin, in modules. */
  quietZoneModules: number;
  /** False when even 1-pixel modules do not fit the size at this resolution. */
  fits: boolean;
  /** Printed sizes in millimetres, at the chosen resolution. */
  edgeMm: number;
  moduleMm: number;
};

/**
 * Where the modules go in a print-ready PNG. Size and padding are lengths at 72 per inch; the
 * image is round((size + 2 × padding) × dpi / 72) pixels on each side. The symbol gets the
 * largest whole number of pixels per module that fits in size × dpi / 72, and whatever pixels
 * that leaves over go to the light margin, split evenly (an odd one goes right and below).
 */
export function computeQrLayout(moduleCount: number, size: number, padding: number, dpi: number): QrLayout {
  const edgePx = Math.round(((size + 2 * padding) * dpi) / 72);
  const modulePx = Math.floor((size * dpi) / 72 / moduleCount);
  const symbolPx = modulePx * moduleCount;
  const offsetPx = Math.floor((edgePx - symbolPx) / 2);
  const mmPerPx = 25.4 / dpi;
  return {
    edgePx,
    modulePx,
    symbolPx,
    offsetPx,
    quietZoneModules: modulePx > 0 ? offsetPx / modulePx : 0,
    fits: modulePx >= 1,
    edgeMm: edgePx * mmPerPx,
    moduleMm: modulePx * mmPerPx,
  };
}

/** The smallest padding on the slider that gives a 4-module quiet zone, or null if none does. */
export function paddingForQuietZone(moduleCount: number, size: number, dpi: number): number | null {
  for (let padding = QR_PADDING.min; padding <= QR_PADDING.max; padding += QR_PADDING.step) {
    const layout = computeQrLayout(moduleCount, size, padding, dpi);
    if (layout.fits && layout.quietZoneModules >= QUIET_ZONE_MODULES) return padding;
  }
  return null;
}
