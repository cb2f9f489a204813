import { ApiError } from '@/lib/api-client';

import { GenerationFailedError } from './generation-stream';

/** Spec §8: what a tool says when the server reports a failure, and when the answer is empty. */
export type GenerationTexts = {
  /** e.g. 'Error generating article'. */
  failure: string;
  /** 'Error occurred, please try again' (article) or 'Error occured, please try again' (others). */
  empty: string;
};

/** Spec §8: a thrown error (no answer, a broken stream, a bug). */
export const unexpectedErrorText = 'An unexpected error occurred. Please try again.';

export type GenerationProblem = {
  /** The spec's text, shown in place of the output. */
  message: string;
  /** What happened and what the user can do about it, when GEM knows; with `retryAt`, why to wait. */
  detail?: string;
  /** The AI service is not configured: the page shows its notice. */
  notConfigured?: boolean;
  /** The monthly AI allowance is used up: the page refreshes what it shows of the allowance. */
  allowanceExhausted?: boolean;
  /** The server asked for a wait: when the user may try again (ms since the epoch); the page counts down. */
  retryAt?: number;
};

/** Why to wait when a wait comes without a reason of its own: the user's own request limit (429). */
export const tooManyRequestsText = 'You have sent too many requests.';

/** What happened, by error code, for the failures a wait or a retry can cure. */
const reasons: Readonly<Record<string, string>> = {
  too_many_requests: tooManyRequestsText,
  ai_busy: 'The AI service is busy right now.',
  ai_timeout: 'The AI service did not answer in time.',
  ai_unavailable: 'The AI service is not available right now.',
};

/** Busy: trying again at once would only be refused again. */
const busyCodes: ReadonlySet<string> = new Set(['too_many_requests', 'ai_busy']);

/** The empty-result problem (spec §8). */
export function emptyResult(texts: GenerationTexts): GenerationProblem {
  return { message: texts.empty };
}

/** Turns whatever a generation failed with into the spec's text plus a helpful detail. */
export function describeGenerationError(
  error: unknown,
  texts: GenerationTexts,
  now: number = Date.now(),
): GenerationProblem {
  if (error instanceof GenerationFailedError) {
    if (error.code === 'allowance_exhausted') return allowanceUsedUp(error.message, texts);
    return (
      describeFailure(error.code, error.retryAfterSeconds, texts, now) ?? {
        message: texts.failure,
        detail: 'The AI service did not give a usable answer. Try again.',
      }
    );
  }
  if (!(error instanceof ApiError)) return { message: unexpectedErrorText };
  if (error.code === 'allowance_exhausted') return allowanceUsedUp(error.message, texts);

  const code = error.status === 429 ? 'too_many_requests' : error.code;
  const described = describeFailure(code, error.retryAfterSeconds, texts, now);
  if (described) return described;
  if (error.code === 'validation_failed' && error.issues.length > 0) {
    return { message: texts.failure, detail: [...new Set(error.issues.map((i) => i.message))].join(' ') };
  }
  if (error.code === 'payload_too_large') {
    return { message: texts.failure, detail: 'The content is too long. Shorten it, then try again.' };
  }
  if (error.status === 401) {
    return { message: texts.failure, detail: 'Your session has ended. Sign in again.' };
  }
  return { message: texts.failure };
}

/**
 * The monthly allowance is used up (429 allowance_exhausted): the server's words, which say what
 * to do; no wait and no retry would cure it.
 */
function allowanceUsedUp(message: string, texts: GenerationTexts): GenerationProblem {
  return { message: texts.failure, detail: message, allowanceExhausted: true };
}

/** The failures that read the same before and after the stream began; undefined for the rest. */
function describeFailure(
  code: string,
  retryAfterSeconds: number | undefined,
  texts: GenerationTexts,
  now: number,
): GenerationProblem | undefined {
  if (code === 'ai_not_configured') {
    return {
      message: texts.failure,
      detail: 'The AI service is not configured. An administrator has to set it up first.',
      notConfigured: true,
    };
  }
  const reason = reasons[code];
  if (retryAfterSeconds !== undefined) {
    // The server said how long to wait: the page counts down. A 429's reason is the default one.
    const retryAt = now + retryAfterSeconds * 1000;
    if (code === 'too_many_requests') return { message: texts.failure, retryAt };
    return { message: texts.failure, detail: reason ?? 'GEM is busy right now.', retryAt };
  }
  if (reason === undefined) return undefined;
  const next = busyCodes.has(code) ? 'Wait a moment, then try again.' : 'Try again.';
  return { message: texts.failure, detail: `${reason} ${next}` };
}

/** "1 second", "45 seconds", "2 minutes", "1 minute 30 seconds". */
export function formatWait(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (whole < 60) return plural(whole, 'second');
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return rest === 0 ? plural(minutes, 'minute') : `${plural(minutes, 'minute')} ${plural(rest, 'second')}`;
}
