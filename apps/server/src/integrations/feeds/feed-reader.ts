import { readFile } from 'node:fs/promises';
import { addressPolicy } from '../http/address-policy';
import { HttpFetchError, safeFetch, type FetchOptions, type Validators } from '../http/safe-fetch';
import { createFeedParser, PARSE_BUDGET_MS } from './feed-parser';
import { isSampleUrl, sampleFilePath } from './feeds-file';
import type { NormalisedItem } from './parsed-feed';

/**
 * The feed port: reads the document a feeds-file URL names, and parses it. http(s) URLs go
 * over the network through the SSRF-safe fetch (integrations/http) with the feed reader's own
 * limits and headers; `gem-sample:` URLs are read from the bundled sample folder, so the
 * default set works with no network at all. Parsing runs on a worker thread (feed-parser.ts)
 * within a time budget, never on the event loop.
 */

export type FeedDocument =
  | { status: 'not-modified' }
  | {
      status: 'ok';
      /** The document as it came; the parser's worker decodes it (charset) and parses it. */
      body: Buffer;
      /** The Content-Type the host sent: the charset it names, if any. */
      contentType: string | undefined;
      etag: string | undefined;
      lastModified: string | undefined;
      /** Relative links in the document resolve against this. */
      baseUrl: string;
      sample: boolean;
    };

export type ReadDocument = Extract<FeedDocument, { status: 'ok' }>;

export type FeedReader = {
  read(url: string, validators: Validators, signal?: AbortSignal): Promise<FeedDocument>;
  /**
   * The document's items (parse-feed.ts). Throws FeedParseError when it is not a feed GEM can
   * read, or takes longer than the parse budget or more memory than the worker may use.
   */
  parse(doc: ReadDocument, signal?: AbortSignal): Promise<NormalisedItem[]>;
};

export type FeedReaderOptions = {
  samplesDir: string;
  allowPrivateHosts: boolean;
  /** Time one document may take to parse; PARSE_BUDGET_MS by default. */
  parseBudgetMs?: number;
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
  // One worker per reader, started with the first document and stopped when idle.
  const parser = createFeedParser({ budgetMs: options.parseBudgetMs ?? PARSE_BUDGET_MS });
  return {
    async read(url, validators, signal) {
      if (isSampleUrl(url)) {
        const file = sampleFilePath(url, options.samplesDir);
        if (!file) throw new HttpFetchError('bad_url', `${url} is not a bundled sample feed`);
        const body = await readFile(file);
        return {
          status: 'ok',
          body,
          contentType: undefined,
          etag: undefined,
          lastModified: undefined,
          baseUrl: url,
          sample: true,
        };
      }
      const result = await safeFetch(url, { ...fetchOptions, validators, signal });
      if (result.status === 'not-modified') return result;
      return {
        status: 'ok',
        body: result.body,
        contentType: result.contentType,
        etag: result.etag,
        lastModified: result.lastModified,
        baseUrl: result.finalUrl,
        sample: false,
      };
    },
    parse(doc, signal) {
      const { body, contentType, baseUrl, sample } = doc;
      return parser.parse({ body, contentType }, { baseUrl, localImages: sample }, signal);
    },
  };
}
