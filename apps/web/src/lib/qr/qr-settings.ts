/** Spec §9: the QR generator's controls. Size and padding are lengths at 72 per inch (points). */
export const QR_SIZE = { min: 100, max: 500, step: 10, initial: 200 } as const;
export const QR_PADDING = { min: 0, max: 64, step: 4, initial: 0 } as const;
export const QR_DPI = { min: 72, max: 600, step: 1, initial: 300 } as const;
/** 300 DPI or more is recommended for print. */
export const PRINT_DPI = 300;
/** Scanners need a light margin of 4 modules around the code (ISO/IEC 18004). */
export const QUIET_ZONE_MODULES = 4;

export type QrSettings = { text: string; size: number; padding: number; dpi: number };

export const EMPTY_TEXT_MESSAGE = 'Please enter text to generate a QR code';
