import { z } from 'zod';

/** The visual brand checker: an external page GEM shows in a sandboxed iframe (spec §1, §2). */
export const visualBrandCheckerPaths = {
  /** GET: where the brand checker lives, or null when none is configured. */
  settings: '/api/visual-brand-checker',
} as const;

export const visualBrandCheckerSettingsSchema = z.object({
  /** GEM_BRAND_CHECKER_URL; null when not configured. */
  url: z.url().nullable(),
});
export type VisualBrandCheckerSettings = z.infer<typeof visualBrandCheckerSettingsSchema>;
