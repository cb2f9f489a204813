import { describe, expect, it } from 'vitest';

import { ApiError, NetworkError } from '@/lib/api-client';
import { BrokenStreamError } from '@/lib/ndjson';

import { describeGenerationError, emptyResult, formatWait, unexpectedErrorText } from './generation-errors';
import { GenerationFailedError } from './generation-stream';

const article = { failure: 'Error generating article', empty: 'Error occurred, please try again' };
const teaser = { failure: 'Error generating teaser', empty: 'Error occured, please try again' };

const apiError = (status: number, code: ConstructorParameters<typeof ApiError>[0]['code'], extra = {}) =>
  new ApiError({ status, code, message: 'x', ...extra });

describe('the spec §8 texts for a failed generation', () => {
  it('a failure the server reports is the tool failure text', () => {
    expect(describeGenerationError(apiError(502, 'ai_unavailable'), article).message).toBe(
      'Error generating article',
    );
    expect(describeGenerationError(apiError(500, 'internal_error'), teaser).message).toBe(
      'Error generating teaser',
    );
    const failedMidStream = new GenerationFailedError({ code: 'ai_unavailable', message: 'Timed out.' });
    expect(describeGenerationError(failedMidStream, teaser).message).toBe('Error generating teaser');
  });

  it('a thrown error (no answer, a broken stream, a bug) is the unexpected-error text', () => {
    expect(unexpectedErrorText).toBe('An unexpected error occurred. Please try again.');
    for (const error of [
      new NetworkError(new TypeError('fetch failed')),
      new BrokenStreamError('ended'),
      new TypeError('bug'),
    ]) {
      expect(describeGenerationError(error, article)).toEqual({ message: unexpectedErrorText });
    }
  });

  it('an empty result keeps each tool its own spelling', () => {
    expect(emptyResult(article).message).toBe('Error occurred, please try again');
    expect(emptyResult(teaser).message).toBe('Error occured, please try again');
  });

  it('a used-up monthly allowance (429) says so in the server’s words, before or during the stream, with no wait', () => {
    const words = 'Your monthly AI allowance is used up. Ask your administrator to raise it.';
    for (const error of [
      apiError(429, 'allowance_exhausted', { message: words }),
      new GenerationFailedError({ code: 'allowance_exhausted', message: words }),
    ]) {
      expect(describeGenerationError(error, teaser)).toEqual({
        message: 'Error generating teaser',
        detail: words,
        allowanceExhausted: true,
      });
    }
  });

  it('a 429 says when to try again', () => {
    const now = 1_000_000;
    expect(
      describeGenerationError(apiError(429, 'too_many_requests', { retryAfterSeconds: 20 }), teaser, now),
    ).toEqual({
      message: 'Error generating teaser',
      retryAt: now + 20_000,
    });
    expect(describeGenerationError(apiError(429, 'too_many_requests'), teaser).detail).toMatch(
      /Wait a moment/,
    );
  });

  it('a 503 ai_busy with Retry-After says the AI service is busy and when to try again', () => {
    const now = 1_000_000;
    expect(
      describeGenerationError(apiError(503, 'ai_busy', { retryAfterSeconds: 30 }), article, now),
    ).toEqual({
      message: 'Error generating article',
      detail: 'The AI service is busy right now.',
      retryAt: now + 30_000,
    });
    expect(describeGenerationError(apiError(503, 'ai_busy'), article)).toEqual({
      message: 'Error generating article',
      detail: 'The AI service is busy right now. Wait a moment, then try again.',
    });
  });

  it('an error event that asks for a wait counts down too', () => {
    const now = 5_000;
    const busy = new GenerationFailedError({ code: 'ai_busy', message: 'x', retryAfterSeconds: 7 });
    expect(describeGenerationError(busy, teaser, now)).toEqual({
      message: 'Error generating teaser',
      detail: 'The AI service is busy right now.',
      retryAt: now + 7_000,
    });
    const unavailable = new GenerationFailedError({
      code: 'ai_unavailable',
      message: 'x',
      retryAfterSeconds: 3,
    });
    expect(describeGenerationError(unavailable, teaser, now)).toEqual({
      message: 'Error generating teaser',
      detail: 'The AI service is not available right now.',
      retryAt: now + 3_000,
    });
  });

  it('any other wait the server asks for is counted down as well', () => {
    const now = 0;
    expect(
      describeGenerationError(apiError(503, 'service_unavailable', { retryAfterSeconds: 5 }), article, now),
    ).toEqual({ message: 'Error generating article', detail: 'GEM is busy right now.', retryAt: 5_000 });
  });

  it('a timeout and an unavailable AI service each say what happened, before or after the stream began', () => {
    const timeout = 'The AI service did not answer in time. Try again.';
    const unavailable = 'The AI service is not available right now. Try again.';
    expect(describeGenerationError(apiError(504, 'ai_timeout'), article)).toEqual({
      message: 'Error generating article',
      detail: timeout,
    });
    expect(describeGenerationError(apiError(502, 'ai_unavailable'), article)).toEqual({
      message: 'Error generating article',
      detail: unavailable,
    });
    const midStream = (code: string) => new GenerationFailedError({ code, message: 'x' });
    expect(describeGenerationError(midStream('ai_timeout'), teaser).detail).toBe(timeout);
    expect(describeGenerationError(midStream('ai_unavailable'), teaser).detail).toBe(unavailable);
    expect(describeGenerationError(midStream('internal_error'), teaser).detail).toBe(
      'The AI service did not give a usable answer. Try again.',
    );
  });

  it('not configured, before or after the stream began, flags the notice', () => {
    expect(describeGenerationError(apiError(503, 'ai_not_configured'), article)).toMatchObject({
      message: 'Error generating article',
      notConfigured: true,
    });
    const midStream = new GenerationFailedError({ code: 'ai_not_configured', message: 'x' });
    expect(describeGenerationError(midStream, article).notConfigured).toBe(true);
  });

  it('passes on the server’s reasons for a rejected input', () => {
    const error = apiError(400, 'validation_failed', {
      issues: [{ path: 'body.content', message: 'The content is too long: at most 20,000 characters.' }],
    });
    expect(describeGenerationError(error, article)).toEqual({
      message: 'Error generating article',
      detail: 'The content is too long: at most 20,000 characters.',
    });
  });
});

describe('formatWait', () => {
  it('reads naturally', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(0.2)).toBe('1 second');
    expect(formatWait(45)).toBe('45 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(150)).toBe('2 minutes 30 seconds');
  });
});
