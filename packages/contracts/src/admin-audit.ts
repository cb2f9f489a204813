import { z } from 'zod';

import { isoDaySchema } from './admin';

export { adminPaths } from './admin-paths';

/**
 * The audit log (issue 30, GET /api/admin/audit, PUT /api/admin/audit/retention): every
 * sign-in GEM sees, every access decision that changed and every administrator's action,
 * newest first, searchable, kept for the retention an administrator sets.
 */

/** Every action the log records, in the order the filter lists them (the server's lib/audit.ts). */
export const auditActionNames = [
  'sign-in.succeeded',
  'sign-in.failed',
  'access.changed',
  'access.granted',
  'access.revoked',
  'access.requested',
  'access.request-approved',
  'access.request-declined',
  'allowance.default-set',
  'allowance.user-set',
  'price.set',
  'price.removed',
  'audit.retention-set',
  'audit.purged',
  'brand-voice.saved',
] as const;
export type AuditActionName = (typeof auditActionNames)[number];

/** The kinds the filter offers: every action whose name starts with the kind and a dot. */
export const auditKinds = ['sign-in', 'access', 'allowance', 'price', 'audit', 'brand-voice'] as const;
export type AuditKind = (typeof auditKinds)[number];

/** What each action is called on the page. */
export const auditActionLabels: Record<AuditActionName, string> = {
  'sign-in.succeeded': 'Signed in',
  'sign-in.failed': 'Sign-in failed',
  'access.changed': 'Access decision changed',
  'access.granted': 'Access granted',
  'access.revoked': 'Access revoked',
  'access.requested': 'Access requested',
  'access.request-approved': 'Access request approved',
  'access.request-declined': 'Access request declined',
  'allowance.default-set': 'Default allowance set',
  'allowance.user-set': 'Personal allowance set',
  'price.set': 'Model price set',
  'price.removed': 'Model price removed',
  'audit.retention-set': 'Audit retention set',
  'audit.purged': 'Old audit entries removed',
  'brand-voice.saved': 'Brand profile saved',
};

export const auditKindLabels: Record<AuditKind, string> = {
  'sign-in': 'Sign-ins',
  access: 'Access',
  allowance: 'Allowances',
  price: 'Prices',
  audit: 'The audit log',
  'brand-voice': 'Brand voice',
};

/** Entries per page ('Load more' asks for the next). */
export const AUDIT_PAGE_SIZE = 50;
/** The longest search text. */
export const AUDIT_QUERY_MAX = 200;
/** How long entries are kept, in days: the range an administrator may set. */
export const AUDIT_RETENTION_MIN_DAYS = 7;
export const AUDIT_RETENTION_MAX_DAYS = 3650;

export const auditQuerySchema = z
  .object({
    /** Matched anywhere in the actor's e-mail, the target or the action, any case. */
    q: z
      .string()
      .trim()
      .max(AUDIT_QUERY_MAX, `The search can be at most ${AUDIT_QUERY_MAX} characters.`)
      .optional(),
    /** One action, or a kind (every action of it). */
    action: z
      .enum([...auditKinds, ...auditActionNames], { error: 'Choose one of the listed kinds of entry.' })
      .optional(),
    /** The first day (UTC) of the range, included. */
    from: isoDaySchema.optional(),
    /** The last day (UTC) of the range, included. */
    to: isoDaySchema.optional(),
    /** From the previous page's `nextBefore`: the entries older than that one. */
    before: z
      .string()
      .regex(/^\d{1,15}$/, 'The page cursor is not valid. Load the list again.')
      .optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    path: ['to'],
    error: 'The last day must not be before the first.',
  });
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  /** ISO 8601. */
  at: z.string(),
  action: z.string(),
  /** Who did it; null for GEM itself (the scheduler) or a sign-in nobody is known for. */
  actorEmail: z.string().nullable(),
  actorUserId: z.string().nullable(),
  /** Whom or what it was about, in words. */
  target: z.string().nullable(),
  targetUserId: z.string().nullable(),
  /** More about it: never a password, a token or a prompt. */
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditResponseSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `before` for the next page; null on the last. */
  nextBefore: z.string().nullable(),
  /** How many days entries are kept. */
  retentionDays: z.number().int(),
  /**
   * Whether GEM sees sign-ins: with its embedded provider it records them; with an external
   * provider (Microsoft Entra ID) sign-ins happen there and are in that provider's own log.
   */
  signIns: z.enum(['recorded', 'external']),
});
export type AuditResponse = z.infer<typeof auditResponseSchema>;

export const auditRetentionBodySchema = z.object({
  days: z
    .number({ error: 'Give a number of days.' })
    .int('Give a whole number of days.')
    .min(AUDIT_RETENTION_MIN_DAYS, `Keep entries at least ${AUDIT_RETENTION_MIN_DAYS} days.`)
    .max(AUDIT_RETENTION_MAX_DAYS, `Keep entries at most ${AUDIT_RETENTION_MAX_DAYS} days (10 years).`),
});
export type AuditRetentionBody = z.infer<typeof auditRetentionBodySchema>;

export const auditRetentionResponseSchema = z.object({ retentionDays: z.number().int() });
export type AuditRetentionResponse = z.infer<typeof auditRetentionResponseSchema>;
