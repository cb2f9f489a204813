import {
  createBudgetedWorker,
  DEFAULT_LIMITS,
  type BudgetedWorkerLimits,
} from '../../../lib/budgeted-worker';
import type { PageFacts } from './page-facts';
import type { PageParseAnswer, PageParseRequest } from './page-parser.worker';

/**
 * Parses fetched pages off the event loop, like the feed parser does feeds
 * (lib/budgeted-worker.ts): one worker thread, one document at a time, a time budget per
 * document (a worker past it is stopped and the document fails) and a heap limit. The worker
 * starts with the first document and stops after a few idle seconds.
 */

export type PageParser = {
  page(body: Uint8Array, contentType: string | undefined, url: string): Promise<PageFacts>;
  close(): Promise<void>;
};

/** Why a document could not be parsed; the message is for people. */
export class PageParseError extends Error {
  override name = 'PageParseError';
}

export const PAGE_PARSE_BUDGET_MS = DEFAULT_LIMITS.budgetMs;

export function createPageParser(options: BudgetedWorkerLimits = {}): PageParser {
  const worker = createBudgetedWorker<PageParseRequest, PageParseAnswer>({
    script: new URL('./page-parser.worker.ts', import.meta.url),
    limits: options,
    failure: { subject: 'the page', error: (message) => new PageParseError(message) },
  });

  const failed = (answer: PageParseAnswer): never => {
    throw new PageParseError(answer.type === 'error' ? answer.message : 'the page parser answered oddly');
  };

  return {
    async page(body, contentType, url) {
      const answer = await worker.run({ body, contentType, url });
      return answer.type === 'page' ? answer.facts : failed(answer);
    },
    close: () => worker.close(),
  };
}
