import type { GenerationRecord, GeneratorInput } from '@gem/contracts/generators';

import type { GenerationTexts } from '@/lib/ai/generation-errors';
import { inputText } from '@/lib/ai/get-generation-history';

type TeaserGeneratorInput = GeneratorInput<'teaser-generator'>;

/** Spec §8 (the other tools' empty-result text is spelled "occured"). */
export const teaserGeneratorTexts: GenerationTexts = {
  failure: 'Error generating teaser',
  empty: 'Error occured, please try again',
};

/** The input an earlier teaser was made from. */
export function teaserGeneratorInputOf(record: GenerationRecord): TeaserGeneratorInput {
  return { content: inputText(record, 'content') };
}
