import type { GenerationRecord } from '@gem/contracts/generators';
import { useQuery } from '@tanstack/react-query';

import {
  generationHistoryQueryOptions,
  getGenerationHistory,
  inputText,
} from '@/lib/generators/get-generation-history';

import type { TeaserInput } from './generate-teaser';

export function getTeaserHistory(signal?: AbortSignal) {
  return getGenerationHistory('teaser-generator', signal);
}

export const teaserHistoryQueryOptions = generationHistoryQueryOptions('teaser-generator');

export function useTeaserHistory() {
  return useQuery(teaserHistoryQueryOptions);
}

/** The input an earlier teaser was made from. */
export function teaserInputOf(record: GenerationRecord): TeaserInput {
  return { content: inputText(record, 'content') };
}
