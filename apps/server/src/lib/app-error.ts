import type { ErrorCode, ValidationIssue } from '@gem/contracts/errors';

/**
 * An error a service throws on purpose. Its message is written for the user and is sent
 * as is, even for 5xx (unlike any other error, whose text never leaves the server).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    /** Seconds, sent as Retry-After (429 and 503). */
    readonly retryAfterSeconds?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
  }

  /** Sent with a 400 validation_failed: one entry per rejected field, as schema checks send them. */
  issues?: ValidationIssue[];

  /** A 400 for fields a service checks itself (the schema could not): 'Some fields are not valid.' */
  static invalid(issues: ValidationIssue[]): AppError {
    const err = new AppError(400, 'validation_failed', 'Some fields are not valid.');
    err.issues = issues;
    return err;
  }
}
