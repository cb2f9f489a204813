import { describe, expect, it } from 'vitest';
import { LlmError } from '../../integrations/llm/text-model';
import { AppError } from '../app-error';
import { endingOf, toAppError, toStreamError } from './ai-errors';

describe('model failures as API answers', () => {
  it('gives a busy service, a timeout, an outage and a cancel each their own code', () => {
    const answer = (err: LlmError) => {
      const mapped = toAppError(err);
      expect(mapped).toBeInstanceOf(AppError);
      const { statusCode, code, retryAfterSeconds } = mapped as AppError;
      return { statusCode, code, retryAfterSeconds };
    };
    expect(answer(new LlmError('rate_limited', '429', { retryAfterSeconds: 7 }))).toEqual({
      statusCode: 503,
      code: 'ai_busy',
      retryAfterSeconds: 7,
    });
    // No wait named by the service: a short pause of GEM's own, so the page can count down.
    expect(answer(new LlmError('rate_limited', '429')).retryAfterSeconds).toBe(10);
    expect(answer(new LlmError('timeout', 'slow'))).toEqual({
      statusCode: 504,
      code: 'ai_timeout',
      retryAfterSeconds: undefined,
    });
    expect(answer(new LlmError('unavailable', '500'))).toMatchObject({
      statusCode: 502,
      code: 'ai_unavailable',
    });
    expect(answer(new LlmError('cancelled', 'gone'))).toMatchObject({
      statusCode: 499,
      code: 'client_closed',
    });
  });

  it('never passes the upstream message on, and leaves other errors alone', () => {
    const mapped = toAppError(new LlmError('unavailable', 'upstream said: key sk-secret is invalid'));
    expect((mapped as AppError).message).toBe('The AI service is not available right now. Please try again.');
    const bug = new TypeError('x is undefined');
    expect(toAppError(bug)).toBe(bug);
  });

  it('says the same in a stream, with the wait when there is one', () => {
    expect(toStreamError(new LlmError('rate_limited', '429', { retryAfterSeconds: 3 }))).toEqual({
      code: 'ai_busy',
      message: 'The AI service is busy right now. Please try again in a moment.',
      retryAfterSeconds: 3,
    });
    expect(toStreamError(new LlmError('timeout', 'slow'))).toEqual({
      code: 'ai_timeout',
      message: 'The AI service did not answer in time. Please try again.',
    });
    expect(toStreamError(new Error('db down'))).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on our side. Please try again.',
    });
  });

  it('records a cancel as cancelled and anything unknown as an internal error', () => {
    expect(endingOf(new LlmError('cancelled', 'gone'))).toEqual({
      outcome: 'cancelled',
      errorCode: 'client_closed',
    });
    expect(endingOf(new LlmError('timeout', 'slow'))).toEqual({ outcome: 'failed', errorCode: 'timeout' });
    expect(endingOf(new Error('?'))).toEqual({ outcome: 'failed', errorCode: 'internal_error' });
  });
});
