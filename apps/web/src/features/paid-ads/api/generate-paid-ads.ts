import type { GeneratorInput } from '@gem/contracts/generators';

import type { GenerationTexts } from '@/lib/generators/generation-errors';
import { streamGeneration, type StreamGenerationOptions } from '@/lib/generators/generation-stream';
import { useGeneration } from '@/lib/generators/use-generation';

export type PaidAdsInput = GeneratorInput<'paid-ads'>;

/** Spec §8 (the other tools' empty-result text is spelled "occured"). */
export const paidAdsTexts: GenerationTexts = {
  failure: 'Error generating paid ads',
  empty: 'Error occured, please try again',
};

/** Streams paid-ads output for the content: an analysis part and the ad copy. */
export function generatePaidAds(input: PaidAdsInput, options?: StreamGenerationOptions) {
  return streamGeneration('paid-ads', input, options);
}

export function useGeneratePaidAds() {
  return useGeneration('paid-ads', paidAdsTexts);
}
