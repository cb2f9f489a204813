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
  /** What the user can do about it, when GEM knows. */
  detail?: string;
  /** The AI service is not configured: the page shows its notice. */
  notConfigured?: boolean;
  /** Rate limited: when the user may try again (ms since the epoch); the page counts down. */
  retryAt?: number;
};

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
    if (error.code === 'ai_not_configured') return notConfigured(texts);
    return { message: texts.failure, detail: 'The AI service did not give a usable answer. Try again.' };
  }
  if (!(error instanceof ApiError)) return { message: unexpectedErrorText };

  if (error.code === 'ai_not_configured') return notConfigured(texts);
  if (error.status === 429) {
    const seconds = error.retryAfterSeconds;
    if (seconds === undefined) {
      return {
        message: texts.failure,
        detail: 'You have sent too many requests. Wait a moment, then try again.',
      };
    }
    return { message: texts.failure, retryAt: now + seconds * 1000 };
  }
  if (error.code === 'validation_failed' && error.issues.length > 0) {
    return { message: texts.failure, detail: [...new Set(error.issues.map((i) => i.message))].join(' ') };
  }
  if (error.code === 'payload_too_large') {
    return { message: texts.failure, detail: 'The content is too long. Shorten it, then try again.' };
  }
  if (error.status === 401) {
    return { message: texts.failure, detail: 'Your session has ended. Sign in again.' };
  }
  if (error.code === 'ai_unavailable') {
    return { message: texts.failure, detail: 'The AI service did not answer in time. Try again.' };
  }
  return { message: texts.failure };
}

function notConfigured(texts: GenerationTexts): GenerationProblem {
  return {
    message: texts.failure,
    detail: 'The AI service is not configured. An administrator has to set it up first.',
    notConfigured: true,
  };
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
