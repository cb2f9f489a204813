import type { GeneratorInput } from '@gem/contracts/generators';

import type { GenerationTexts } from '@/lib/generators/generation-errors';
import { streamGeneration, type StreamGenerationOptions } from '@/lib/generators/generation-stream';
import { useGeneration } from '@/lib/generators/use-generation';

export type TeaserInput = GeneratorInput<'teaser-generator'>;

/** Spec §8 (the other tools' empty-result text is spelled "occured"). */
export const teaserTexts: GenerationTexts = {
  failure: 'Error generating teaser',
  empty: 'Error occured, please try again',
};

/** Streams a teaser for the content. */
export function generateTeaser(input: TeaserInput, options?: StreamGenerationOptions) {
  return streamGeneration('teaser-generator', input, options);
}

export function useGenerateTeaser() {
  return useGeneration('teaser-generator', teaserTexts);
}
