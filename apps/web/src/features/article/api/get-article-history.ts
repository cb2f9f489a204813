import type { GenerationRecord } from '@gem/contracts/generators';
import { useQuery } from '@tanstack/react-query';

import {
  generationHistoryQueryOptions,
  getGenerationHistory,
  inputText,
} from '@/lib/generators/get-generation-history';

import type { ArticleInput } from './generate-article';

export function getArticleHistory(signal?: AbortSignal) {
  return getGenerationHistory('article', signal);
}

export const articleHistoryQueryOptions = generationHistoryQueryOptions('article');

export function useArticleHistory() {
  return useQuery(articleHistoryQueryOptions);
}

/** The inputs an earlier article was made from. */
export function articleInputOf(record: GenerationRecord): ArticleInput {
  return { content: inputText(record, 'content'), task: inputText(record, 'task') };
}
