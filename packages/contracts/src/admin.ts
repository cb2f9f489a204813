import { z } from 'zod';

export { adminPaths } from './admin-paths';

/**
 * Administration (issue 30): what the slices share. Each part of the admin area has its own file
 * beside this one: admin-access.ts (the access list, grants, requests), admin-usage.ts (usage,
 * prices), admin-allowances.ts, admin-audit.ts, admin-integrations.ts.
 */

/** A person as the admin pages name them. */
export const adminPersonSchema = z.object({
  userId: z.uuid(),
  email: z.string().nullable(),
  name: z.string().nullable(),
});
export type AdminPerson = z.infer<typeof adminPersonSchema>;

/** A calendar day, YYYY-MM-DD (UTC), as the admin pages' ranges are given. */
export const isoDaySchema = z.iso.date({ error: 'Give a date as YYYY-MM-DD.' });

/** A reason an administrator gives for an access change: required, recorded in the audit log. */
export const adminReasonSchema = z
  .string({ error: 'Give a reason.' })
  .trim()
  .min(1, 'Give a reason.')
  .max(500, 'The reason can be at most 500 characters.');
