import { z } from 'zod';

import { errorCodes } from './error-codes';

export { errorCodeForStatus, errorCodes, type ErrorCode } from './error-codes';

export const errorCodeSchema = z.enum(errorCodes);

export const validationIssueSchema = z.object({
  /** Where the problem is, e.g. `body.task` or `query.limit`. */
  path: z.string(),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** Every error the API returns has this one shape. */
export const errorResponseSchema = z.object({
  error: z.object({
    code: errorCodeSchema,
    message: z.string(),
    /** Present on `validation_failed`: one entry per rejected field. */
    issues: z.array(validationIssueSchema).optional(),
    /** Echoes the `x-request-id` header so support can find the log line. */
    requestId: z.string().optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
