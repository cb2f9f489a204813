/**
 * The error codes and the status mapping without zod, so the browser's first chunk can use
 * them without loading zod. `errors.ts` re-exports them beside the error shape's schema.
 */

/** The `code` of every error the API returns (the shape is `errorResponseSchema` in errors.ts). */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  /** The thing is in a state that does not allow this (e.g. a brief chat that was already accepted). */
  'conflict',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
  /** No AI service is configured (GEM_AI_PROVIDER unset). */
  'ai_not_configured',
  /** The AI service failed or gave no usable answer. */
  'ai_unavailable',
  /** The AI service is busy (it answered 429, or 503 with a wait): try again after Retry-After. */
  'ai_busy',
  /** The AI service did not answer within GEM_AI_TIMEOUT_MS. */
  'ai_timeout',
  /** The CRM (Salesforce or the embedded demo CRM) failed, refused GEM's credentials or timed out. */
  'crm_unavailable',
  /** The user's monthly AI token allowance is used up (429, until an admin raises it or the month ends). */
  'allowance_exhausted',
  /** The client went away before the answer was complete (nobody reads this answer). */
  'client_closed',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** The code an error status stands for when nothing more specific is known (server and web agree). */
export function errorCodeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}
