import { APICallError } from 'ai';
import type { AiConfig, AiServiceConfig } from '../../config';
import type { Log } from '../../lib/logger';
import { InvalidOutput, invalidOutputReason } from './structured-output';
import { LlmError, type TextModelRequest } from './text-model';

/** What the provider asked us to wait, in ms, from retry-after-ms or retry-after. */
function retryAfterMs(headers: Record<string, string> | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

type Classified = { error: LlmError; retryable: boolean; waitMs: number | undefined };

function abortError(callerSignal: AbortSignal | undefined, timeoutMs: number, cause?: unknown): LlmError {
  return callerSignal?.aborted
    ? new LlmError('cancelled', 'the caller aborted the model call', { cause })
    : new LlmError('timeout', `no complete answer within ${timeoutMs} ms`, { cause });
}

/** Sleeps, unless the signal aborts first. */
export function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export type RetryOptions = {
  ai: Pick<AiConfig, 'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs'>;
  provider: AiServiceConfig['provider'];
  log?: Pick<Log, 'warn'> | undefined;
  /** Waits before a retry; resolves early when the signal aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The clock for the deadline's bookkeeping and Retry-After dates (ms since the epoch). */
  now: () => number;
};

/**
 * Retries are ours, not the SDK's (its maxRetries is 0): a 429 or 5xx that arrives before any
 * text is retried at most `maxRetries` times, after the Retry-After the service asked for
 * (retry-after-ms or retry-after, seconds or a date) or else an exponential backoff. A wait that
 * would outlast the timeout is not started: the call fails at once. The timeout covers one call
 * with all its attempts and waits. A 503 that names a Retry-After is a busy service
 * (`rate_limited`), retried like a 429.
 */
export function retryingCalls({ ai, provider, log, sleep, now }: RetryOptions) {
  /**
   * One model call: a deadline, the caller's signal, and the retry loop around `attempt`.
   * An attempt that has yielded anything is not retried.
   */
  async function* withRetries<Y, T>(
    request: TextModelRequest,
    attempt: (signal: AbortSignal) => AsyncGenerator<Y, T>,
  ): AsyncGenerator<Y, T> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), ai.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    const endsAt = now() + ai.timeoutMs;
    try {
      for (let attemptNo = 1; ; attemptNo += 1) {
        let wroteText = false;
        try {
          if (signal.aborted) throw abortError(request.signal, ai.timeoutMs);
          const run = attempt(signal);
          for (;;) {
            const next = await run.next();
            if (next.done) {
              if (signal.aborted) throw abortError(request.signal, ai.timeoutMs);
              return next.value;
            }
            wroteText = true;
            yield next.value;
          }
        } catch (err) {
          const { error, retryable, waitMs } = classify(err, attemptNo);
          if (!retryable || wroteText || attemptNo > ai.maxRetries) throw error;
          const wait = waitMs ?? ai.retryBaseDelayMs * 2 ** (attemptNo - 1);
          if (now() + wait >= endsAt) throw error;
          log?.warn(
            { provider: provider, status: error.details.status, attempt: attemptNo, waitMs: wait },
            'AI service call failed; retrying',
          );
          await sleep(wait, signal);
        }
      }
    } finally {
      clearTimeout(timer);
      // Stops the provider call when the consumer leaves early.
      if (!deadline.signal.aborted) deadline.abort();
    }

    function classify(err: unknown, attempts: number): Classified {
      if (err instanceof LlmError) return { error: err, retryable: false, waitMs: undefined };
      if (signal.aborted) {
        return { error: abortError(request.signal, ai.timeoutMs, err), retryable: false, waitMs: undefined };
      }
      const invalid = invalidOutputReason(err);
      if (invalid !== undefined) {
        return {
          error: new LlmError('invalid_output', `the AI service's answer ${invalid}`, {
            attempts,
            cause: err,
            rejected: err instanceof InvalidOutput ? err.rejected : undefined,
          }),
          retryable: false,
          waitMs: undefined,
        };
      }
      const apiError = APICallError.isInstance(err)
        ? err
        : APICallError.isInstance((err as { cause?: unknown })?.cause)
          ? ((err as { cause: APICallError }).cause as APICallError)
          : undefined;
      const status = apiError?.statusCode;
      const waitMs = retryAfterMs(apiError?.responseHeaders, now());
      const retryAfterSeconds = waitMs === undefined ? undefined : Math.ceil(waitMs / 1000);
      // A 503 that says when to come back is a busy service, not a broken one.
      if (status === 429 || (status === 503 && waitMs !== undefined)) {
        return {
          error: new LlmError('rate_limited', `the AI service answered ${status}`, {
            status,
            retryAfterSeconds,
            attempts,
            cause: err,
          }),
          retryable: true,
          waitMs,
        };
      }
      const message = status
        ? `the AI service answered ${status}`
        : `the AI service could not be used: ${err instanceof Error ? err.message : String(err)}`;
      return {
        error: new LlmError('unavailable', message, { status, retryAfterSeconds, attempts, cause: err }),
        // A 200 whose stream broke has status 200: only real 5xx answers are retried.
        retryable: status !== undefined && status >= 500,
        waitMs,
      };
    }
  }

  return withRetries;
}
