/**
 * What parsing a feed gives, apart from the parser itself (parse-feed.ts, which runs in the feed
 * parser's worker thread): the main thread imports these without loading feedsmith and
 * html-to-text (8 MB of memory it would hold for nothing: bench/memory.md).
 */

export type NormalisedItem = {
  /** The item's own id (JSON Feed id, RSS guid, Atom id), when it has one. */
  guid: string | null;
  /** The link without utm_* parameters or fragment: the second dedupe key. */
  canonicalUrl: string;
  url: string;
  title: string;
  imageUrl: string | null;
  publishedAt: Date | null;
  contentText: string;
  authors: string[];
};

export type ParseOptions = {
  /** Where the document came from; relative links and images resolve against it. */
  baseUrl: string;
  /** Sample feeds may name images served by GEM itself, as root-relative paths. */
  localImages?: boolean;
  /** Items read from one document at most. */
  maxItems?: number;
};

/** The document is not a feed GEM can read (malformed, or another format). */
export class FeedParseError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'FeedParseError';
  }
}
