import { errorCodeForStatus, type ErrorCode } from '@gem/contracts/error-codes';
import type { ValidationIssue } from '@gem/contracts/errors';

import { env } from '@/config/env';
import { authSession } from '@/lib/auth/session';
import { readErrorResponse } from '@/lib/light-schemas';

/** The API answered with an error status. Carries the contracts error shape. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly issues: readonly ValidationIssue[];
  readonly requestId: string | undefined;
  /** From a Retry-After header (429, 503): how long to wait before trying again, in seconds. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    status: number;
    code: ErrorCode;
    message: string;
    issues?: readonly ValidationIssue[];
    requestId?: string | undefined;
    retryAfterSeconds?: number | undefined;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.issues = init.issues ?? [];
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** The request never got an answer: offline, DNS, refused connection, CORS. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';

  constructor(cause: unknown) {
    super('Could not reach the GEM server. Check your connection and try again.', { cause });
  }
}

/** Anything with a zod-style `parse`, so callers can check a response against a contract. */
export type ResponseSchema<T> = { parse(data: unknown): T };

export type RequestOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Checks and types the JSON response. Without it the response is returned as is. */
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
};

export type StreamOptions = {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** The media type the stream is expected in. */
  accept?: string;
};

export type ApiClientOptions = {
  /** Prefix for every path; empty means the page's own origin. */
  baseUrl: string;
  /**
   * Returns the bearer token for the signed-in user, or nothing when signed out.
   * `forceRefresh` asks for a new one (after a 401).
   */
  getAccessToken?: (options?: { forceRefresh?: boolean }) => Promise<string | null | undefined>;
  /** Called when a 401 cannot be cured with a fresh token: the session is over. */
  onAuthenticationLost?: () => void | Promise<void>;
  /** The fetch to use; tests can point this at a real local server's origin instead. */
  fetch?: typeof globalThis.fetch;
};

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(options: ApiClientOptions) {
  const { baseUrl, getAccessToken, onAuthenticationLost } = options;

  type SendOptions = Omit<RequestOptions<unknown>, 'schema'> & { accept?: string };

  async function send(path: string, init: SendOptions, token: string | null | undefined) {
    // Resolved per call, not captured, so tests and polyfills that replace fetch are honoured.
    const doFetch = options.fetch ?? globalThis.fetch;
    const headers = new Headers({ Accept: init.accept ?? 'application/json' });
    if (init.body !== undefined) headers.set('Content-Type', 'application/json');
    if (token) headers.set('Authorization', `Bearer ${token}`);
    try {
      return await doFetch(`${baseUrl}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal: init.signal ?? null,
        credentials: 'same-origin',
      });
    } catch (error) {
      // A cancelled request is not a network failure; TanStack Query needs to see the abort.
      if (init.signal?.aborted) throw error;
      throw new NetworkError(error);
    }
  }

  /** Sends with the bearer token and the 401 retry; any answer but 2xx becomes an ApiError. */
  async function authorizedFetch(path: string, init: SendOptions): Promise<Response> {
    const token = await getAccessToken?.();
    let response = await send(path, init, token);

    // Spec §7: on a 401 retry once with a fresh token; with none to be had, the session is over.
    if (response.status === 401 && token && getAccessToken) {
      const fresh = await getAccessToken({ forceRefresh: true });
      if (fresh) {
        await response.body?.cancel().catch(() => undefined);
        response = await send(path, init, fresh);
      } else {
        await onAuthenticationLost?.();
      }
    }

    if (!response.ok) throw await toApiError(response);
    return response;
  }

  async function request<T = unknown>(path: string, init: RequestOptions<T> = {}): Promise<T> {
    const response = await authorizedFetch(path, init);
    if (response.status === 204) return undefined as T;

    const data: unknown = await response.json();
    return init.schema ? init.schema.parse(data) : (data as T);
  }

  /**
   * POSTs like `post`, but hands back the response as soon as its headers arrive, so the caller
   * can read the body as it streams (fetch streaming: the token stays in a header, never in
   * the URL). The same token handling, 401 retry and error shape as every other call.
   */
  async function stream(path: string, init: StreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const response = await authorizedFetch(path, {
      method: 'POST',
      body: init.body,
      signal: init.signal,
      accept: init.accept ?? 'application/x-ndjson',
    });
    if (!response.body) throw new TypeError('The response has no body to stream.');
    return response.body;
  }

  /**
   * GETs a file (a CSV export) as a Blob, with the same token handling, 401 retry and error
   * shape as every other call, so a download needs no token in its URL.
   */
  async function download(path: string, init: { signal?: AbortSignal; accept?: string } = {}): Promise<Blob> {
    const response = await authorizedFetch(path, {
      method: 'GET',
      signal: init.signal,
      accept: init.accept ?? '*/*',
    });
    return response.blob();
  }

  return {
    request,
    stream,
    download,
    get: <T = unknown>(path: string, init?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
      request<T>(path, { ...init, method: 'GET' }),
    post: <T = unknown>(path: string, body?: unknown, init?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
      request<T>(path, { ...init, method: 'POST', body }),
  };
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined; // e.g. an HTML error page from a proxy
  }
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const error = readErrorResponse(body);
  if (error) {
    const { code, message, issues, requestId } = error;
    return new ApiError({ status: response.status, code, message, issues, requestId, retryAfterSeconds });
  }
  return new ApiError({
    status: response.status,
    code: errorCodeForStatus(response.status),
    message: `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
    retryAfterSeconds,
  });
}

/** Retry-After is either whole seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** The app's one HTTP client. Paths come from contracts, e.g. `healthPaths.health`. */
export const api = createApiClient({
  baseUrl: env.apiOrigin,
  getAccessToken: (tokenOptions) => authSession.getAccessToken(tokenOptions),
  onAuthenticationLost: () => authSession.lost(),
});
