import {
  generationHistoryResponseSchema,
  generatorPaths,
  type GenerationHistoryResponse,
  type GenerationRecord,
  type GeneratorName,
} from '@gem/contracts/generators';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getGenerationHistory(
  name: GeneratorName,
  signal?: AbortSignal,
): Promise<GenerationHistoryResponse> {
  return api.get(generatorPaths.history(name), { schema: generationHistoryResponseSchema, signal });
}

/** The signed-in user's last 20 generations of one tool, newest first. */
export function generationHistoryQueryOptions(name: GeneratorName) {
  return queryOptions({
    queryKey: ['generators', name, 'history'],
    queryFn: ({ signal }) => getGenerationHistory(name, signal),
    staleTime: 30_000,
  });
}

export function useGenerationHistory(name: GeneratorName) {
  return useQuery(generationHistoryQueryOptions(name));
}

/** A string field of a recorded input ('' when missing): records outlive input shapes. */
export function inputText(record: GenerationRecord, key: string): string {
  const value = record.input[key];
  return typeof value === 'string' ? value : '';
}
