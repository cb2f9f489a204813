import type { GeneratorInput } from '@gem/contracts/generators';

import type { GenerationTexts } from '@/lib/generators/generation-errors';
import { streamGeneration, type StreamGenerationOptions } from '@/lib/generators/generation-stream';
import { useGeneration } from '@/lib/generators/use-generation';

export type SummarizeInput = GeneratorInput<'summarize'>;

/** Spec §8 (the other tools' empty-result text is spelled "occured"). */
export const summarizeTexts: GenerationTexts = {
  failure: 'Error summarizing text',
  empty: 'Error occured, please try again',
};

/** Streams a summary of the document: the first step of a social media post. */
export function summarize(input: SummarizeInput, options?: StreamGenerationOptions) {
  return streamGeneration('summarize', input, options);
}

export function useSummarize() {
  return useGeneration('summarize', summarizeTexts);
}
