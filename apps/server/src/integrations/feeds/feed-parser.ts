import { createBudgetedWorker, DEFAULT_LIMITS, type BudgetedWorkerLimits } from '../../lib/budgeted-worker';
import type { ParseAnswer, ParseRequest } from './feed-parser.worker';
import { FeedParseError, type NormalisedItem, type ParseOptions } from './parsed-feed';

/**
 * Parses feed documents off the event loop. A document is third-party input up to 5 MiB, and
 * turning its HTML into text can take seconds (html-to-text, feedsmith): on the server's own
 * thread that would hold up every request. One worker thread parses one document at a time;
 * one that takes longer than the time budget (or more memory than the limit) is stopped, and
 * its feed's read fails with a message that says so. The worker starts with the first
 * document and stops after a while with nothing to parse (lib/budgeted-worker.ts).
 */

/** A document as it came: its bytes, and the Content-Type that names its charset. */
export type RawDocument = { body: Uint8Array; contentType?: string };

export type FeedParser = {
  /** Decodes and parses a document (parse-feed.ts decodeBody, parseFeedDocument). */
  parse(doc: RawDocument, options: ParseOptions, signal?: AbortSignal): Promise<NormalisedItem[]>;
  /** Stops the worker; documents still waiting are refused. */
  close(): Promise<void>;
};

/** Time one document may take to parse, when the worker stops with nothing to parse, its heap limit. */
export type FeedParserOptions = BudgetedWorkerLimits;

export const PARSE_BUDGET_MS = DEFAULT_LIMITS.budgetMs;

/** What a document over its time budget or heap limit fails with (worded by lib/budgeted-worker.ts). */
export const TOO_SLOW = 'the document took too long to parse';
export const TOO_BIG = 'the document needs too much memory to parse';

export function createFeedParser(options: FeedParserOptions = {}): FeedParser {
  const worker = createBudgetedWorker<ParseRequest, ParseAnswer>({
    script: new URL('./feed-parser.worker.ts', import.meta.url),
    limits: options,
    failure: { subject: 'the document', error: (message) => new FeedParseError(message) },
  });

  return {
    async parse({ body, contentType }, parseOptions, signal) {
      const answer = await worker.run({ body, contentType, options: parseOptions }, signal);
      if (answer.type === 'items') return answer.items;
      const error = answer.unreadable ? new FeedParseError(answer.message) : new Error(answer.message);
      if (answer.stack) error.stack = answer.stack;
      throw error;
    },
    close: () => worker.close(),
  };
}
