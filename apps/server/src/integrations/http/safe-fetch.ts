import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import type { AddressPolicy } from './address-policy';

/**
 * GETs a document over http(s) with the guards an internet-facing fetch of configured URLs
 * needs (feeds, the competitor crawler, any outbound call to a URL from configuration):
 * every hop (the first and each redirect) may only connect to an address the policy allows,
 * checked on the address actually connected to (a DNS answer is checked at connect time, so
 * a name that resolves to 127.0.0.1 is refused, and so is an IP literal); redirects go to
 * http(s) only, at most five; the whole exchange has a deadline; the body has a size cap,
 * counted after decompression.
 */

export type Validators = { etag?: string | null; lastModified?: string | null };

export type FetchOptions = {
  isPermittedAddress: AddressPolicy;
  /** For the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** Largest body accepted, after decompression. */
  maxBytes: number;
  /** Every caller names itself to the hosts it reads (the feed reader, the crawler). */
  userAgent: string;
  /** The Accept header; any type when left out. */
  accept?: string;
  /** Conditional GET: sent as If-None-Match / If-Modified-Since; a 304 is reported as not modified. */
  validators?: Validators;
  maxRedirects?: number;
  signal?: AbortSignal;
  /**
   * Called before each request (the first and every redirect hop), once its URL has passed the
   * checks that need no DNS (scheme, an IP literal's address): a crawler waits its turn for the
   * host and checks robots.txt here; throwing stops the fetch with that error. The time it
   * takes does not count against timeoutMs.
   */
  beforeRequest?: (url: URL, hop: number) => Promise<void>;
  /**
   * Takes the body as it arrives instead of keeping it (a large document read as a stream):
   * each chunk, decompressed and within maxBytes, goes here, and the answer's body is empty.
   * Returning false stops reading; the answer ends there. What it throws ends the fetch as it is.
   */
  onData?: (chunk: Buffer) => boolean | void;
};

export type FetchResult =
  | { status: 'not-modified' }
  | {
      status: 'ok';
      body: Buffer;
      contentType: string | undefined;
      etag: string | undefined;
      lastModified: string | undefined;
      /** Where the document came from after redirects: relative links resolve against it. */
      finalUrl: string;
      /** All the final answer's headers (e.g. X-Robots-Tag), names in lower case. */
      headers: IncomingHttpHeaders;
    };

export type HttpFetchFailure =
  'bad_url' | 'blocked_address' | 'too_many_redirects' | 'timeout' | 'too_large' | 'http_status' | 'network';

/** Why a fetch failed; `message` is safe to log and store (no bodies, no credentials). */
export class HttpFetchError extends Error {
  /** With reason 'http_status': the status the host answered. */
  readonly httpStatus: number | undefined;
  /** With reason 'http_status': the answer's Retry-After header, as sent (seconds or a date). */
  readonly retryAfter: string | undefined;
  constructor(
    readonly reason: HttpFetchFailure,
    message: string,
    options?: ErrorOptions & { httpStatus?: number; retryAfter?: string },
  ) {
    super(message, options);
    this.name = 'HttpFetchError';
    this.httpStatus = options?.httpStatus;
    this.retryAfter = options?.retryAfter;
  }
}

/** The host and path of a URL, without credentials or query, for messages and logs. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** A DNS lookup that refuses the whole answer when any address in it is not permitted. */
function guardedLookup(isPermitted: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => !isPermitted(a.address));
      if (refused || addresses.length === 0) {
        const blocked = new HttpFetchError(
          'blocked_address',
          `${hostname} resolves to ${refused?.address ?? 'nothing'}, which GEM may not connect to`,
        );
        return callback(blocked as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

function decoder(res: IncomingMessage) {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

const header = (res: IncomingMessage, name: string) => {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export async function safeFetch(url: string, options: FetchOptions): Promise<FetchResult> {
  const maxRedirects = options.maxRedirects ?? 5;
  const controller = new AbortController();
  // The deadline runs while GEM waits for the host, not while beforeRequest holds the request back.
  let left = options.timeoutMs;
  let armedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    armedAt = performance.now();
    timer = setTimeout(() => controller.abort(), Math.max(0, left));
  };
  const pause = () => {
    clearTimeout(timer);
    left -= performance.now() - armedAt;
  };
  arm();
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    let current = url;
    for (let hop = 0; hop <= maxRedirects; hop += 1) {
      const target = checkedTarget(current, options);
      if (options.beforeRequest) {
        pause();
        try {
          await options.beforeRequest(target, hop);
        } finally {
          arm();
        }
        if (controller.signal.aborted) throw new HttpFetchError('timeout', 'the request was cancelled');
      }
      const answer = await requestOnce(target, options, controller.signal);
      if (answer.kind === 'redirect') {
        current = answer.location;
        continue;
      }
      return answer.result;
    }
    throw new HttpFetchError('too_many_redirects', `more than ${maxRedirects} redirects`);
  } catch (err) {
    if (controller.signal.aborted && !(err instanceof HttpFetchError && err.reason !== 'network')) {
      throw new HttpFetchError(
        'timeout',
        options.signal?.aborted
          ? 'the request was cancelled'
          : `no complete answer within ${options.timeoutMs} ms`,
      );
    }
    throw err;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

type Answer = { kind: 'redirect'; location: string } | { kind: 'done'; result: FetchResult };

/** The URL, if GEM may ask for it: http(s), and an IP literal's address allowed by the policy. */
function checkedTarget(url: string, options: FetchOptions): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new HttpFetchError('bad_url', 'not a valid URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new HttpFetchError('bad_url', `${target.protocol} addresses are not read`);
  }
  // An IP literal never goes through DNS, so it is checked here; names are checked at connect.
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !options.isPermittedAddress(host)) {
    throw new HttpFetchError('blocked_address', `${host} is not an address GEM may connect to`);
  }
  return target;
}

function requestOnce(target: URL, options: FetchOptions, signal: AbortSignal): Promise<Answer> {
  const url = target.href;

  const headers: Record<string, string> = {
    accept: options.accept ?? '*/*',
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': options.userAgent,
  };
  const validators = options.validators ?? {};
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;

  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(
        err instanceof HttpFetchError
          ? err
          : new HttpFetchError('network', `could not read ${describeUrl(url)}: ${(err as Error).message}`, {
              cause: err,
            }),
      );
    };
    const req = client.request(
      target,
      {
        method: 'GET',
        headers,
        lookup: guardedLookup(options.isPermittedAddress),
        signal,
        // A fresh connection per request: a pooled socket would skip the connect-time check.
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if ([301, 302, 303, 307, 308].includes(status)) {
          res.resume();
          const location = header(res, 'location');
          if (!location) return fail(new HttpFetchError('http_status', `HTTP ${status} without a Location`));
          let next: URL;
          try {
            next = new URL(location, target);
          } catch {
            return fail(new HttpFetchError('bad_url', 'the redirect Location is not a valid URL'));
          }
          if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            return fail(new HttpFetchError('bad_url', `a redirect to ${next.protocol} is not followed`));
          }
          settled = true;
          return resolve({ kind: 'redirect', location: next.toString() });
        }
        if (status === 304) {
          res.resume();
          settled = true;
          return resolve({ kind: 'done', result: { status: 'not-modified' } });
        }
        if (status < 200 || status > 299) {
          res.resume();
          const retryAfter = header(res, 'retry-after');
          return fail(
            new HttpFetchError('http_status', `HTTP ${status} from ${describeUrl(target.href)}`, {
              httpStatus: status,
              ...(retryAfter ? { retryAfter } : {}),
            }),
          );
        }
        const declared = Number(header(res, 'content-length'));
        if (Number.isFinite(declared) && declared > options.maxBytes && !res.headers['content-encoding']) {
          res.destroy();
          return fail(tooLarge(options.maxBytes));
        }
        const unzip = decoder(res);
        const stream = unzip ? res.pipe(unzip) : res;
        if (unzip) res.on('error', (err) => unzip.destroy(err));
        const chunks: Buffer[] = [];
        let size = 0;
        const stop = () => {
          res.destroy();
          unzip?.destroy();
        };
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > options.maxBytes) {
            stop();
            fail(tooLarge(options.maxBytes));
            return;
          }
          if (!options.onData) {
            chunks.push(chunk);
            return;
          }
          let more: boolean | void;
          try {
            more = options.onData(chunk);
          } catch (err) {
            stop();
            settled = true;
            reject(err as Error);
            return;
          }
          if (more === false) {
            done();
            stop();
          }
        });
        stream.on('error', fail);
        // Cut off mid-body (the deadline, a reset): no 'end' comes, only 'close'.
        res.on('close', () => {
          if (!res.complete) fail(new Error('the connection closed before the document ended'));
        });
        stream.on('end', done);
        function done() {
          if (settled) return;
          settled = true;
          resolve({
            kind: 'done',
            result: {
              status: 'ok',
              body: Buffer.concat(chunks),
              contentType: header(res, 'content-type'),
              etag: header(res, 'etag'),
              lastModified: header(res, 'last-modified'),
              finalUrl: target.href,
              headers: res.headers,
            },
          });
        }
      },
    );
    // A refused lookup arrives here as the HttpFetchError guardedLookup made.
    req.on('error', fail);
    req.end();
  });
}

function tooLarge(maxBytes: number) {
  return new HttpFetchError('too_large', `the document is larger than ${maxBytes} bytes`);
}
