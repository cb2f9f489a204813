import { aiStatusPath, aiStatusResponseSchema, type AiStatusResponse } from '@gem/contracts/ai-status';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getAiStatus(signal?: AbortSignal): Promise<AiStatusResponse> {
  return api.get(aiStatusPath, { schema: aiStatusResponseSchema, signal });
}

export const aiStatusQueryOptions = queryOptions({
  queryKey: ['ai-status'],
  queryFn: ({ signal }) => getAiStatus(signal),
  // Changes only when an administrator restarts GEM with other settings.
  staleTime: 5 * 60_000,
});

export function useAiStatus() {
  return useQuery(aiStatusQueryOptions);
}

/** True only when the server said no AI service is configured; unknown (loading, failed) is not. */
export function useAiNotConfigured(): boolean {
  return useAiStatus().data?.configured === false;
}

/** True when the built-in stand-in answers (no AI service is configured): its answers are examples. */
export function useDemoAi(): boolean {
  return useAiStatus().data?.demo === true;
}
