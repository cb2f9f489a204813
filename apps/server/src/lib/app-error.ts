import type { ErrorCode } from '@gem/contracts/errors';

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
}
