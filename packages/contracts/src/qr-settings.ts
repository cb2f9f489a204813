import { z } from 'zod';

/**
 * Spec §9: the QR generator's settings, shared by the QR tool and the QR code a campaign keeps
 * (issue 29). Size and padding are lengths at 72 per inch (points).
 */
export const QR_SIZE = { min: 100, max: 500, step: 10, initial: 200 } as const;
export const QR_PADDING = { min: 0, max: 64, step: 4, initial: 0 } as const;
export const QR_DPI = { min: 72, max: 600, step: 1, initial: 300 } as const;
/** 300 DPI or more is recommended for print. */
export const PRINT_DPI = 300;
/** Scanners need a light margin of 4 modules around the code (ISO/IEC 18004). */
export const QUIET_ZONE_MODULES = 4;

const whole = (label: string, { min, max }: { min: number; max: number }, unit: string) =>
  z
    .number({ error: `${label} must be a number.` })
    .int({ error: `${label} must be a whole number of ${unit}.` })
    .min(min, { error: `${label} must be at least ${min} ${unit}.` })
    .max(max, { error: `${label} must be at most ${max} ${unit}.` });

/** A QR code's size, padding and resolution, within the QR generator's ranges. */
export const qrSettingsSchema = z.object({
  size: whole('The size', QR_SIZE, 'pt'),
  padding: whole('The padding', QR_PADDING, 'pt'),
  dpi: whole('The resolution', QR_DPI, 'DPI'),
});
export type QrSettings = z.infer<typeof qrSettingsSchema>;
