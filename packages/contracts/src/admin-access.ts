import { z } from 'zod';

import { adminPersonSchema, adminReasonSchema } from './admin';
import { storableText } from './storable-text';
import { isStorableText, unstorableTextMessage } from './text-rules';

export { adminPaths } from './admin-paths';

/**
 * The admin area's access part (issue 30): the access list, grants and revocations, and the
 * requests people send from the Access Denied page. Every change needs a reason and is written
 * to the audit log with the administrator who made it.
 */

const instant = z.iso.datetime({ offset: true });

/**
 * How someone gets in: as an administrator (GEM_ADMIN_EMAILS, GEM_ADMIN_ROLES), on the access
 * list, by their e-mail's domain, by a role of their token; 'revoked' when an administrator shut
 * them out (a domain or a role would let them in otherwise), 'none' when no rule does.
 */
export const accessRuleNames = ['admin', 'list', 'domain', 'role', 'revoked', 'none'] as const;
export const accessRuleSchema = z.enum(accessRuleNames);
export type AccessRuleName = z.infer<typeof accessRuleSchema>;

/** A reason for a change, as the database can store it: required, at most 500 characters. */
export const accessReasonSchema = z
  .string({ error: 'Give a reason.' })
  .refine(isStorableText, { error: unstorableTextMessage('The reason'), abort: true })
  .pipe(adminReasonSchema);

/** A request's note: optional, at most 1,000 characters. */
export const accessRequestNoteSchema = storableText('The note')
  .trim()
  .max(1000, 'The note can be at most 1,000 characters.');

export const accessRequestStatusSchema = z.enum(['pending', 'approved', 'declined']);
export type AccessRequestStatus = z.infer<typeof accessRequestStatusSchema>;

/** One row of the access list: everyone GEM knows (who has signed in at least once). */
export const accessEntrySchema = z.object({
  user: adminPersonSchema,
  hasAccess: z.boolean(),
  rule: accessRuleSchema,
  /** The access list's row in force, when there is one. */
  grant: z
    .object({ grantedAt: instant, grantedBy: adminPersonSchema.nullable(), reason: z.string().nullable() })
    .nullable(),
  /** An administrator's revocation in force, when there is one. */
  revocation: z
    .object({ revokedAt: instant, revokedBy: adminPersonSchema.nullable(), reason: z.string().nullable() })
    .nullable(),
  /** Their last visit (written at most once a minute); null before their first. */
  lastSeenAt: instant.nullable(),
  /** The id of their pending access request, when they sent one. */
  pendingRequestId: z.uuid().nullable(),
});
export type AccessEntry = z.infer<typeof accessEntrySchema>;

export const accessListQuerySchema = z.object({
  /** Part of a name or an e-mail, any case. */
  q: z.string().trim().max(200, 'The search can be at most 200 characters.').optional(),
  rule: accessRuleSchema.optional(),
});
export type AccessListQuery = z.infer<typeof accessListQuerySchema>;

export const accessListResponseSchema = z.object({
  entries: z.array(accessEntrySchema),
  /** How many people GEM knows in all (before the search and the filter). */
  total: z.number().int().nonnegative(),
});
export type AccessListResponse = z.infer<typeof accessListResponseSchema>;

/** POST adminPaths.accessGrants: a person by their id (from the list) or by e-mail, and why. */
export const grantAccessRequestSchema = z
  .object({
    userId: z.uuid({ error: 'Choose a person from the list.' }).optional(),
    email: z
      .email({ error: 'Give an e-mail address, e.g. name@example.com.' })
      .max(320, 'The e-mail can be at most 320 characters.')
      .optional(),
    reason: accessReasonSchema,
  })
  .refine((v) => (v.userId === undefined) !== (v.email === undefined), {
    error: 'Give either the e-mail of the person or their id, not both.',
    path: ['email'],
  });
export type GrantAccessRequest = z.infer<typeof grantAccessRequestSchema>;

/** POST adminPaths.accessRevocations. */
export const revokeAccessRequestSchema = z.object({
  userId: z.uuid({ error: 'Choose a person from the list.' }),
  reason: accessReasonSchema,
});
export type RevokeAccessRequest = z.infer<typeof revokeAccessRequestSchema>;

/** What a grant or a revocation answers: the person's row as the list now shows it. */
export const accessChangeResponseSchema = z.object({ entry: accessEntrySchema });
export type AccessChangeResponse = z.infer<typeof accessChangeResponseSchema>;

/** An access request as administrators see it. */
export const accessRequestSchema = z.object({
  id: z.uuid(),
  user: adminPersonSchema,
  note: z.string().nullable(),
  status: accessRequestStatusSchema,
  createdAt: instant,
  decidedAt: instant.nullable(),
  decidedBy: adminPersonSchema.nullable(),
  decisionReason: z.string().nullable(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

/** GET adminPaths.accessRequests: every pending request (oldest first), the latest decided ones. */
export const accessRequestsResponseSchema = z.object({
  pending: z.array(accessRequestSchema),
  decided: z.array(accessRequestSchema),
});
export type AccessRequestsResponse = z.infer<typeof accessRequestsResponseSchema>;

/** POST adminPaths.accessRequestDecision: approve (a grant) or decline; the reason is recorded. */
export const accessRequestDecisionSchema = z.object({
  decision: z.enum(['approve', 'decline'], { error: "Choose 'approve' or 'decline'." }),
  reason: z.union([accessReasonSchema, z.literal('').transform(() => undefined)]).optional(),
});
export type AccessRequestDecision = z.infer<typeof accessRequestDecisionSchema>;

export const accessRequestDecisionParamsSchema = z.object({
  requestId: z.uuid({ error: 'No such access request.' }),
});

export const accessRequestDecisionResponseSchema = z.object({ request: accessRequestSchema });
export type AccessRequestDecisionResponse = z.infer<typeof accessRequestDecisionResponseSchema>;

/** The requester's own view of their latest request (GET and POST adminPaths.accessRequest). */
export const ownAccessRequestSchema = z.object({
  id: z.uuid(),
  note: z.string().nullable(),
  status: accessRequestStatusSchema,
  createdAt: instant,
  decidedAt: instant.nullable(),
  decisionReason: z.string().nullable(),
});
export type OwnAccessRequest = z.infer<typeof ownAccessRequestSchema>;

export const ownAccessRequestResponseSchema = z.object({
  /** Their latest request; null when they never asked. */
  request: ownAccessRequestSchema.nullable(),
  /**
   * Whether they may use GEM now. Asking while they may makes no request: the answer says so, and
   * the page goes in.
   */
  hasAccess: z.boolean(),
});
export type OwnAccessRequestResponse = z.infer<typeof ownAccessRequestResponseSchema>;

/** POST adminPaths.accessRequest: asks for access, with an optional note to the administrators. */
export const createAccessRequestSchema = z.object({
  note: accessRequestNoteSchema.optional(),
});
export type CreateAccessRequest = z.infer<typeof createAccessRequestSchema>;
