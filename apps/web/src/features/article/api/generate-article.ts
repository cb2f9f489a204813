import type { GeneratorInput } from '@gem/contracts/generators';

import type { GenerationTexts } from '@/lib/generators/generation-errors';
import { streamGeneration, type StreamGenerationOptions } from '@/lib/generators/generation-stream';
import { useGeneration } from '@/lib/generators/use-generation';

export type ArticleInput = GeneratorInput<'article'>;

/** Spec §8, the article's own texts (spelled "occurred", unlike the other tools). */
export const articleTexts: GenerationTexts = {
  failure: 'Error generating article',
  empty: 'Error occurred, please try again',
};

/** Streams an article for the content and task (NDJSON GenerationEvents). */
export function generateArticle(input: ArticleInput, options?: StreamGenerationOptions) {
  return streamGeneration('article', input, options);
}

export function useGenerateArticle() {
  return useGeneration('article', articleTexts);
}
