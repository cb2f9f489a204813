import { z } from 'zod';

/** Every error the API returns has this one shape. */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
  /** No AI service is configured (GEM_AI_PROVIDER unset). */
  'ai_not_configured',
  /** The AI service failed, timed out or gave no usable answer. */
  'ai_unavailable',
] as const;

export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const validationIssueSchema = z.object({
  /** Where the problem is, e.g. `body.task` or `query.limit`. */
  path: z.string(),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

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
