import type { ErrorCode } from '@gem/contracts/errors';
import { LlmError, type LlmFailure } from '../../integrations/llm/text-model';
import { AppError } from '../app-error';
import type { AiCallOutcome } from './ai-call-log';

/**
 * What a failed model call means for the API: the status, the code and the words the page may
 * show (nothing from upstream), and how the call is recorded.
 */

type FailureAnswer = { status: number; code: ErrorCode; message: string; recorded: string };

const answers: Record<LlmFailure, FailureAnswer> = {
  timeout: {
    status: 504,
    code: 'ai_timeout',
    message: 'The AI service did not answer in time. Please try again.',
    recorded: 'timeout',
  },
  rate_limited: {
    status: 503,
    code: 'ai_busy',
    message: 'The AI service is busy right now. Please try again in a moment.',
    recorded: 'rate_limited',
  },
  unavailable: {
    status: 502,
    code: 'ai_unavailable',
    message: 'The AI service is not available right now. Please try again.',
    recorded: 'ai_unavailable',
  },
  invalid_output: {
    status: 502,
    code: 'ai_unavailable',
    message: 'The AI service gave an answer GEM could not use. Please try again.',
    recorded: 'invalid_output',
  },
  incomplete: {
    status: 502,
    code: 'ai_unavailable',
    message: 'The AI service’s answer was cut off before its end. Please try again.',
    recorded: 'incomplete',
  },
  cancelled: {
    status: 499,
    code: 'client_closed',
    message: 'The request was cancelled.',
    recorded: 'client_closed',
  },
};

/** When the service named no wait of its own, a busy service is asked again after this. */
const DEFAULT_BUSY_WAIT_SECONDS = 10;

export const INTERNAL_AI_ERROR = 'Something went wrong on our side. Please try again.';

function retryAfterOf(err: LlmError): number | undefined {
  if (err.failure !== 'rate_limited') return undefined;
  const upstream = err.details.retryAfterSeconds;
  return upstream && upstream > 0 ? upstream : DEFAULT_BUSY_WAIT_SECONDS;
}

/** How a call that threw `err` is recorded. */
export function endingOf(err: unknown): { outcome: AiCallOutcome; errorCode: string } {
  if (!(err instanceof LlmError)) return { outcome: 'failed', errorCode: 'internal_error' };
  return {
    outcome: err.failure === 'cancelled' ? 'cancelled' : 'failed',
    errorCode: answers[err.failure].recorded,
  };
}

/** A model failure as the API's error answer (before a stream began); anything else as is. */
export function toAppError(err: unknown): unknown {
  if (!(err instanceof LlmError)) return err;
  const answer = answers[err.failure];
  return new AppError(answer.status, answer.code, answer.message, retryAfterOf(err), { cause: err });
}

/** A failure after a stream began: the `error` line of an NDJSON stream. */
export type StreamError = { code: string; message: string; retryAfterSeconds?: number };

export function toStreamError(err: unknown): StreamError {
  if (!(err instanceof LlmError)) return { code: 'internal_error', message: INTERNAL_AI_ERROR };
  const answer = answers[err.failure];
  const retryAfterSeconds = retryAfterOf(err);
  return {
    code: answer.code,
    message: answer.message,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

export const isCancelled = (err: unknown) => err instanceof LlmError && err.failure === 'cancelled';
