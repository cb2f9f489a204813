import { ApiError, NetworkError } from '@/lib/api-client';

/**
 * What went wrong, in the server's words: the first field's message of a 400, else the error's
 * own; `fallback` for anything else.
 */
export function problemText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.issues[0]?.message ?? error.message;
  if (error instanceof NetworkError) return error.message;
  return fallback;
}

export const isStatus = (error: unknown, status: number): boolean =>
  error instanceof ApiError && error.status === status;
