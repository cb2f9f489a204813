import { z } from 'zod';

import { adminPersonSchema } from './admin';

export { adminPaths } from './admin-paths';

/**
 * Monthly AI allowances (issue 30): tokens (in and out) a person may use in a calendar month
 * (UTC). The administrators set a default and overrides per person; null means no limit. The AI
 * platform refuses a call (429 allowance_exhausted) once the month's tokens reach the allowance.
 * Paths: adminPaths.allowances, allowanceDefault, allowanceUser and allowance (every user's own).
 */

/** What the AI routes answer once the allowance is used up (429 allowance_exhausted). */
export const ALLOWANCE_EXHAUSTED_MESSAGE =
  'Your monthly AI allowance is used up. Ask your administrator to raise it.';

/** The largest allowance an administrator can set: far beyond any month's use, and exact in a double. */
export const MAX_MONTHLY_TOKENS = 1_000_000_000_000;

/** From this share of the allowance on, a person is near their limit (the admin page flags them). */
export const NEAR_LIMIT_SHARE = 0.8;

/** Tokens a month: a whole number from 0 (no AI at all) to MAX_MONTHLY_TOKENS, or null for no limit. */
export const monthlyTokensSchema = z
  .number({ error: 'Give the allowance as a whole number of tokens, or no limit.' })
  .int('Give the allowance as a whole number of tokens.')
  .min(0, 'The allowance cannot be negative.')
  .max(MAX_MONTHLY_TOKENS, 'The allowance can be at most 1,000,000,000,000 tokens.')
  .nullable();

/** PUT adminPaths.allowanceDefault and allowanceUser (for a person, null: back to the default). */
export const allowanceSetRequestSchema = z.strictObject({ monthlyTokens: monthlyTokensSchema });
export type AllowanceSetRequest = z.infer<typeof allowanceSetRequestSchema>;

/** The person an override is for: an unknown or malformed id is 'No such user.' (400). */
export const NO_SUCH_USER = 'No such user.';
export const allowanceUserParamsSchema = z.object({ userId: z.uuid({ error: NO_SUCH_USER }) });

/** GET adminPaths.allowance: the signed-in user's own allowance this month. */
export const ownAllowanceResponseSchema = z.object({
  /** null: no limit. */
  monthlyTokens: z.number().int().nullable(),
  usedTokens: z.number().int(),
  /** null: no limit; never below 0. */
  remainingTokens: z.number().int().nullable(),
  /** When the month's count starts again (the first of next month, 00:00 UTC). */
  resetsAt: z.iso.datetime(),
});
export type OwnAllowanceResponse = z.infer<typeof ownAllowanceResponseSchema>;

/** A person's own allowance, over the default. */
export const allowanceOverrideSchema = z.object({
  person: adminPersonSchema,
  monthlyTokens: z.number().int(),
  /** The administrator who set it (null when that account is gone). */
  setBy: adminPersonSchema.nullable(),
  setAt: z.iso.datetime(),
});
export type AllowanceOverride = z.infer<typeof allowanceOverrideSchema>;

/** A person's month so far against their allowance. */
export const allowanceUseSchema = z.object({
  person: adminPersonSchema,
  /** Their allowance: their override, else the default; null: no limit. */
  monthlyTokens: z.number().int().nullable(),
  /** Whether monthlyTokens is their own (an override) rather than the default. */
  overridden: z.boolean(),
  usedTokens: z.number().int(),
  /** usedTokens / monthlyTokens (may pass 1: calls in flight can overspend); null: no limit. */
  share: z.number().nullable(),
  /** share ≥ NEAR_LIMIT_SHARE. */
  nearLimit: z.boolean(),
});
export type AllowanceUse = z.infer<typeof allowanceUseSchema>;

/** GET adminPaths.allowances. */
export const allowancesResponseSchema = z.object({
  /** null: no limit. */
  defaultMonthlyTokens: z.number().int().nullable(),
  /** Who set the default last (their e-mail, from the audit log), and when; null before anyone did. */
  defaultSetBy: z.string().nullable(),
  defaultSetAt: z.iso.datetime().nullable(),
  overrides: z.array(allowanceOverrideSchema),
  /** Everyone GEM knows, largest share first (no limit last), then most tokens, then by e-mail. */
  month: z.array(allowanceUseSchema),
  /** The month counted: its first day (UTC) and when it ends. */
  monthStart: z.iso.date(),
  resetsAt: z.iso.datetime(),
});
export type AllowancesResponse = z.infer<typeof allowancesResponseSchema>;
