import { describe, expect, it } from 'vitest';

import { ApiError, NetworkError } from './api-client';
import { createQueryClient, retryDelay, shouldRetry } from './query-client';

describe('query client defaults', () => {
  it('backs off exponentially and never waits more than 30 s', () => {
    expect([0, 1, 2, 3].map(retryDelay)).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelay(5)).toBe(30_000);
    expect(retryDelay(50)).toBe(30_000);
  });

  it('retries a failing query 3 times, then gives up', () => {
    const failure = new NetworkError(new TypeError('fetch failed'));
    expect([0, 1, 2, 3].map((count) => shouldRetry(count, failure))).toEqual([true, true, true, false]);
  });

  it('does not retry answers that a retry cannot change', () => {
    const notFound = new ApiError({ status: 404, code: 'not_found', message: 'No such feed' });
    const tooMany = new ApiError({ status: 429, code: 'too_many_requests', message: 'Slow down' });
    const broken = new ApiError({ status: 500, code: 'internal_error', message: 'Oops' });
    expect(shouldRetry(0, notFound)).toBe(false);
    expect(shouldRetry(0, tooMany)).toBe(true);
    expect(shouldRetry(0, broken)).toBe(true);
  });

  it('wires those rules and a 5 minute cache into new clients', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries?.retry).toBe(shouldRetry);
    expect(queries?.retryDelay).toBe(retryDelay);
    expect(queries?.gcTime).toBe(5 * 60_000);
  });
});
