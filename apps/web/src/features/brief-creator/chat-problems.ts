import { briefChatFailureTexts, type BriefTurnKind, type ChatFailure } from '@gem/contracts/brief-creator';

import {
  describeGenerationError,
  formatWait,
  tooManyRequestsText,
  type GenerationProblem,
} from '@/lib/ai/generation-errors';
import { GenerationFailedError } from '@/lib/ai/generation-stream';
import { ApiError } from '@/lib/api-client';

/** What the answer bubble says under a failure: the reason, and when to try again. */
export function detailOf(problem: GenerationProblem, now = Date.now()): string | undefined {
  if (problem.retryAt === undefined) return problem.detail;
  return `${problem.detail ?? tooManyRequestsText} Wait ${formatWait((problem.retryAt - now) / 1000)}, then try again.`;
}

/** A turn that failed after its message was stored: the spec's words for its kind (§8), and why. */
export const describeFailedTurn = (failure: ChatFailure, kind: BriefTurnKind): GenerationProblem =>
  describeGenerationError(new GenerationFailedError(failure), {
    failure: briefChatFailureTexts[kind],
    empty: briefChatFailureTexts[kind],
  });

/** A turn refused before its stream began: nothing was stored, so the text goes back in the box. */
export function describeRefusal(error: unknown, kind: BriefTurnKind, retry: boolean): GenerationProblem {
  const failure = kind === 'chat' && !retry ? 'Your message was not sent.' : briefChatFailureTexts[kind];
  if (error instanceof ApiError && (error.code === 'conflict' || error.code === 'not_found')) {
    // The server's words say which: another tab is answering, or the brief was accepted already.
    return { message: failure, detail: error.message };
  }
  return describeGenerationError(error, { failure, empty: failure });
}

/** A chat named by the URL that could not be opened: someone else's or a wrong link, or a failed load. */
export function describeOpenFailure(error: unknown): GenerationProblem {
  if (error instanceof ApiError && error.status === 404) {
    return {
      message: 'This chat could not be opened.',
      detail: 'It may belong to someone else, or the link may be wrong. You can start a new chat here.',
    };
  }
  const failure = 'This chat could not be loaded. Reload the page to try again.';
  return describeGenerationError(error, { failure, empty: failure });
}
