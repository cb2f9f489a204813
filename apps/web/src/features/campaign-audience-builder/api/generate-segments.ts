import {
  campaignAudienceBuilderPaths,
  generateSegmentsResponseSchema,
  type GenerateSegmentsRequest,
  type GenerateSegmentsResponse,
} from '@gem/contracts/campaign-audience-builder';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** Spec §7 `POST /api/sf/generate-boost-segments`: the segments, reports and facts. */
export function generateSegments(request: GenerateSegmentsRequest): Promise<GenerateSegmentsResponse> {
  return api.post(campaignAudienceBuilderPaths.generate, request, { schema: generateSegmentsResponseSchema });
}

/** One generation at a time; it is never retried on its own (it takes an AI call). */
export function useGenerateSegments() {
  return useMutation({ mutationFn: generateSegments });
}
