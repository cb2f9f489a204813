import { AUDIENCE_BUILDER_ERROR } from '@gem/contracts/campaign-audience-builder';

import { ApiError, NetworkError } from '@/lib/api-client';
import { describeGenerationError, type GenerationProblem } from '@/lib/ai/generation-errors';

const texts = { failure: AUDIENCE_BUILDER_ERROR, empty: AUDIENCE_BUILDER_ERROR };

/**
 * What the screen says when a generation fails (spec §8): an unknown campaign in the server's
 * own words ('No campaign has the id …'); the AI tools' texts for a service that is not
 * configured, busy or limited; the spec's text for the rest, with what GEM knows.
 */
export function describeAudienceError(error: unknown): GenerationProblem {
  if (error instanceof ApiError) {
    if (error.status === 404) return { message: error.message };
    if (error.code === 'crm_unavailable') {
      return {
        message: AUDIENCE_BUILDER_ERROR,
        detail: 'The CRM did not answer as expected. Wait a moment, then try again.',
      };
    }
    return describeGenerationError(error, texts);
  }
  // No answer at all, or one that is not the contract's.
  return error instanceof NetworkError
    ? { message: AUDIENCE_BUILDER_ERROR, detail: error.message }
    : { message: AUDIENCE_BUILDER_ERROR };
}
