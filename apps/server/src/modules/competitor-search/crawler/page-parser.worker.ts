import { serveBudgetedWorker } from '../../../lib/budgeted-worker';
import { decodeHtml } from './decode-html';
import { extractPage, type PageFacts } from './page-facts';

/**
 * The page parser's thread (page-parser.ts starts it): parses one fetched page at a time,
 * so a large or hostile page never holds up the server's event loop. In the bundle it is its own
 * entry point, dist/page-parser.worker.js (build.mjs).
 */

export type PageParseRequest = { body: Uint8Array; contentType: string | undefined; url: string };
export type PageParseAnswer = { type: 'page'; facts: PageFacts } | { type: 'error'; message: string };

serveBudgetedWorker((request: PageParseRequest): PageParseAnswer => {
  try {
    const bytes = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
    const text = decodeHtml(bytes, request.contentType);
    return { type: 'page', facts: extractPage(text, request.url) };
  } catch (err) {
    return { type: 'error', message: err instanceof Error ? err.message : String(err) };
  }
});
