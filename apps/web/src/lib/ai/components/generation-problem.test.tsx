import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { describeGenerationError } from '../generation-errors';
import { GenerationFailedError } from '../generation-stream';
import { GenerationProblemAlert } from './generation-problem';

const texts = { failure: 'Error generating article', empty: 'Error occurred, please try again' };

// Fake timers move the clock the countdown reads: seconds pass in no time.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the seconds pass one by one: each tick renders, and the render sets the next tick. */
function passSeconds(seconds: number) {
  for (let i = 0; i < seconds; i += 1) act(() => vi.advanceTimersByTime(1000));
}

describe('GenerationProblemAlert', () => {
  it('counts down a 503 ai_busy with Retry-After, then says the user can try again', () => {
    const busy = new ApiError({ status: 503, code: 'ai_busy', message: 'Busy.', retryAfterSeconds: 3 });
    render(<GenerationProblemAlert problem={describeGenerationError(busy, texts)} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Error generating article');
    expect(alert).toHaveTextContent('The AI service is busy right now. Try again in 3 seconds.');
    passSeconds(1);
    expect(alert).toHaveTextContent('The AI service is busy right now. Try again in 2 seconds.');
    passSeconds(2);
    expect(alert).toHaveTextContent('The AI service is busy right now. You can try again now.');
    // Done counting: no timer is left running.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts down the wait an error event asked for', () => {
    const busy = new GenerationFailedError({ code: 'ai_busy', message: 'Busy.', retryAfterSeconds: 90 });
    render(<GenerationProblemAlert problem={describeGenerationError(busy, texts)} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The AI service is busy right now. Try again in 1 minute 30 seconds.',
    );
    passSeconds(31);
    expect(screen.getByRole('alert')).toHaveTextContent('Try again in 59 seconds.');
  });

  it('names a 429 wait as the user’s own request limit', () => {
    const limited = new ApiError({
      status: 429,
      code: 'too_many_requests',
      message: 'Slow down.',
      retryAfterSeconds: 20,
    });
    render(<GenerationProblemAlert problem={describeGenerationError(limited, texts)} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'You have sent too many requests. Try again in 20 seconds.',
    );
  });

  it('shows the detail as it is when there is nothing to wait for', () => {
    const timeout = new ApiError({ status: 504, code: 'ai_timeout', message: 'Timed out.' });
    render(<GenerationProblemAlert problem={describeGenerationError(timeout, texts)} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Error generating articleThe AI service did not answer in time. Try again.',
    );
  });
});
