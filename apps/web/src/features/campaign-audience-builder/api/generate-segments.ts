import {
  campaignAudienceBuilderPaths,
  generateSegmentsResponseSchema,
  type GenerateSegmentsRequest,
  type GenerateSegmentsResponse,
} from '@gem/contracts/campaign-audience-builder';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { refreshAiAllowance } from '@/lib/ai/get-ai-allowance';
import { api } from '@/lib/api-client';

/** Spec §7 `POST /api/sf/generate-boost-segments`: the segments, reports and facts. */
export function generateSegments(request: GenerateSegmentsRequest): Promise<GenerateSegmentsResponse> {
  return api.post(campaignAudienceBuilderPaths.generate, request, { schema: generateSegmentsResponseSchema });
}

/** One generation at a time; it is never retried on its own (it takes an AI call). */
export function useGenerateSegments() {
  const queryClient = useQueryClient();
  // Settled either way, the month's allowance has changed (or was found used up): show it.
  return useMutation({ mutationFn: generateSegments, onSettled: () => refreshAiAllowance(queryClient) });
}
