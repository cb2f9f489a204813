import {
  generationHistoryResponseSchema,
  writingToolPaths,
  type GenerationHistoryResponse,
  type GenerationRecord,
  type WritingToolName,
} from '@gem/contracts/writing-tools';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getGenerationHistory(
  name: WritingToolName,
  signal?: AbortSignal,
): Promise<GenerationHistoryResponse> {
  return api.get(writingToolPaths.history(name), { schema: generationHistoryResponseSchema, signal });
}

/** The signed-in user's last 20 generations of one tool, newest first. */
export function generationHistoryQueryOptions(name: WritingToolName) {
  return queryOptions({
    queryKey: ['writing-tools', name, 'history'],
    queryFn: ({ signal }) => getGenerationHistory(name, signal),
    staleTime: 30_000,
  });
}

export function useGenerationHistory(name: WritingToolName) {
  return useQuery(generationHistoryQueryOptions(name));
}

/** A string field of a recorded input ('' when missing): records outlive input shapes. */
export function inputText(record: GenerationRecord, key: string): string {
  const value = record.input[key];
  return typeof value === 'string' ? value : '';
}
