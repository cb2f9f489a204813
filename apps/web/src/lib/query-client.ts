import { QueryClient } from '@tanstack/react-query';

import { ApiError } from '@/lib/api-client';

// Spec §9: data queries retry 3 times, exponential backoff capped at 30 s, cache for 5 minutes.
const maxRetries = 3;
const maxRetryDelayMs = 30_000;

/** 1 s, 2 s, 4 s, ... never more than 30 s. `attempt` counts from 0 like TanStack's. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, maxRetryDelayMs);
}

/**
 * Retries failures that might pass next time (network, 5xx, 408, 429). Other 4xx answers
 * will not change on a retry, and retrying them only delays the error the user needs to see.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= maxRetries) return false;
  if (error instanceof ApiError && error.status < 500) {
    return error.status === 408 || error.status === 429;
  }
  return true;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        gcTime: 5 * 60_000,
        // Feeds and lists change on the scale of minutes; refetching on every mount or focus
        // would only add load.
        staleTime: 60_000,
      },
      mutations: {
        // Generating content costs money and is not idempotent: never repeat it silently.
        retry: false,
      },
    },
  });
}
