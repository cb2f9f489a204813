import type { GenerationRecord } from '@gem/contracts/generators';
import { useQuery } from '@tanstack/react-query';

import {
  generationHistoryQueryOptions,
  getGenerationHistory,
  inputText,
} from '@/lib/generators/get-generation-history';

import type { PaidAdsInput } from './generate-paid-ads';

export function getPaidAdsHistory(signal?: AbortSignal) {
  return getGenerationHistory('paid-ads', signal);
}

export const paidAdsHistoryQueryOptions = generationHistoryQueryOptions('paid-ads');

export function usePaidAdsHistory() {
  return useQuery(paidAdsHistoryQueryOptions);
}

/** The input earlier ads were made from. */
export function paidAdsInputOf(record: GenerationRecord): PaidAdsInput {
  return { content: inputText(record, 'content') };
}
