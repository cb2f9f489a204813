import { serveBudgetedWorker } from '../../lib/budgeted-worker';
import { decodeBody, parseFeedDocument } from './parse-feed';
import { FeedParseError, type ParseOptions } from './parsed-feed';

/**
 * The feed parser's thread (feed-parser.ts starts it): decodes and parses one document at a
 * time, so a large or hostile document never holds up the server's event loop. In the bundle it is its
 * own entry point, dist/feed-parser.worker.js (build.mjs).
 */

/** A document's bytes (a copy arrives as a plain Uint8Array) and its Content-Type. */
export type ParseRequest = { body: Uint8Array; contentType: string | undefined; options: ParseOptions };
export type ParseAnswer =
  | { type: 'items'; items: ReturnType<typeof parseFeedDocument> }
  | { type: 'error'; unreadable: boolean; message: string; stack?: string };

serveBudgetedWorker(({ body, contentType, options }: ParseRequest): ParseAnswer => {
  try {
    const text = decodeBody(Buffer.from(body.buffer, body.byteOffset, body.byteLength), contentType);
    return { type: 'items', items: parseFeedDocument(text, options) };
  } catch (err) {
    const unreadable = err instanceof FeedParseError;
    const { message, stack } = err instanceof Error ? err : new Error(String(err));
    return { type: 'error', unreadable, message, ...(unreadable ? {} : { stack }) };
  }
});
