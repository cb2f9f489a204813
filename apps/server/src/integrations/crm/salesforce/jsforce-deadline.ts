import type { Connection, HttpRequest, HttpRequestOptions } from '@jsforce/jsforce-node';

/**
 * GEM's deadline on every jsforce request, and jsforce's retries off (decision 017). jsforce has
 * no public setting for either per connection: its query, describe and token calls pass no
 * request options, and its own retries (5xx and network errors, up to five, about 15 s) and fetch
 * timeout (none, unless HTTP_TIMEOUT is set for the whole process) would otherwise hold a call.
 * So the connection's and the OAuth client's private `_transport` are wrapped. jsforce is pinned
 * to an exact version in apps/server/package.json (decision 024), and jsforce-deadline.test.ts
 * fails when the private shape this relies on changes.
 */

/** Something that sends its requests through a jsforce transport: a Connection or its OAuth2 client. */
export type HasTransport = { _transport: Connection['_transport'] };

/** Sends every request of `target` with `timeoutMs` and no retries. */
export function withDeadline(target: HasTransport, timeoutMs: number): void {
  const base = target._transport;
  const options: HttpRequestOptions = { timeout: timeoutMs, retry: { maxRetries: 0 } };
  target._transport = Object.assign(Object.create(base) as typeof base, {
    httpRequest: (req: HttpRequest, more?: HttpRequestOptions) =>
      base.httpRequest(req, { ...more, ...options }),
  });
}
