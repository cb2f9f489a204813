import { create } from 'qrcode';

import { formatInteger } from '@/lib/format-number';

import { EMPTY_TEXT_MESSAGE } from './qr-settings';

/** The symbol: a square of dark and light modules, without its quiet zone. */
export type QrMatrix = {
  /** Modules per side. */
  size: number;
  version: number;
  isDark(row: number, column: number): boolean;
};

export type QrEncoding = { ok: true; matrix: QrMatrix; bytes: number } | { ok: false; message: string };

/** The most a version 40 symbol at error correction L holds in byte mode. */
export const MAX_QR_BYTES = 2953;

/** Spec §9: error correction level L. Text is stored as UTF-8, exactly as typed. */
export function encodeQr(text: string): QrEncoding {
  if (text.trim() === '') return { ok: false, message: EMPTY_TEXT_MESSAGE };
  const bytes = new TextEncoder().encode(text).length;
  try {
    const { modules, version } = create(text, { errorCorrectionLevel: 'L' });
    const { size, data } = modules;
    return {
      ok: true,
      bytes,
      matrix: { size, version, isDark: (row, column) => data[row * size + column] === 1 },
    };
  } catch {
    return {
      ok: false,
      message: `This text is too long for a QR code: it takes ${formatInteger(bytes)} bytes, and a QR code holds at most ${formatInteger(MAX_QR_BYTES)}. Shorten it, or link to a page that holds it.`,
    };
  }
}
