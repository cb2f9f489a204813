import { readFile } from 'node:fs/promises';
import { addressPolicy } from '../http/address-policy';
import { HttpFetchError, safeFetch, type FetchOptions, type Validators } from '../http/safe-fetch';
import { isSampleUrl, sampleFilePath } from './feeds-file';
import { decodeBody } from './parse-feed';

/**
 * The feed port: reads the document a feeds-file URL names. http(s) URLs go over the network
 * through the SSRF-safe fetch (integrations/http) with the feed reader's own limits and
 * headers; `gem-sample:` URLs are read from the bundled sample folder, so the default set
 * works with no network at all.
 */

export type FeedDocument =
  | { status: 'not-modified' }
  | {
      status: 'ok';
      text: string;
      etag: string | undefined;
      lastModified: string | undefined;
      /** Relative links in the document resolve against this. */
      baseUrl: string;
      sample: boolean;
    };

export type FeedReader = {
  read(url: string, validators: Validators, signal?: AbortSignal): Promise<FeedDocument>;
};

export type FeedReaderOptions = {
  samplesDir: string;
  allowPrivateHosts: boolean;
} & Partial<Pick<FetchOptions, 'timeoutMs' | 'maxBytes' | 'isPermittedAddress' | 'userAgent'>>;

/** Spec'd limits: 10 s for a whole read, 5 MiB for a document. */
export const FEED_TIMEOUT_MS = 10_000;
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
export const FEED_USER_AGENT = 'GEM-feed-reader/1.0 (internal marketing workspace)';
/** The feed formats GEM reads, preferred first; anything else is tried as a last resort. */
export const FEED_ACCEPT =
  'application/feed+json, application/json;q=0.9, application/atom+xml, application/rss+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5';

export function createFeedReader(options: FeedReaderOptions): FeedReader {
  const fetchOptions = {
    timeoutMs: options.timeoutMs ?? FEED_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? FEED_MAX_BYTES,
    isPermittedAddress: options.isPermittedAddress ?? addressPolicy(options.allowPrivateHosts),
    userAgent: options.userAgent ?? FEED_USER_AGENT,
    accept: FEED_ACCEPT,
  };
  return {
    async read(url, validators, signal) {
      if (isSampleUrl(url)) {
        const file = sampleFilePath(url, options.samplesDir);
        if (!file) throw new HttpFetchError('bad_url', `${url} is not a bundled sample feed`);
        const text = await readFile(file, 'utf8');
        return { status: 'ok', text, etag: undefined, lastModified: undefined, baseUrl: url, sample: true };
      }
      const result = await safeFetch(url, { ...fetchOptions, validators, signal });
      if (result.status === 'not-modified') return result;
      return {
        status: 'ok',
        text: decodeBody(result.body, result.contentType),
        etag: result.etag,
        lastModified: result.lastModified,
        baseUrl: result.finalUrl,
        sample: false,
      };
    },
  };
}
