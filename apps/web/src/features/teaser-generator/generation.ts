import type { GenerationRecord, WritingToolInput } from '@gem/contracts/writing-tools';

import type { GenerationTexts } from '@/lib/ai/generation-errors';
import { inputText } from '@/lib/writing-tools/get-generation-history';

type TeaserGeneratorInput = WritingToolInput<'teaser-generator'>;

/** Spec §8 (the other tools' empty-result text is spelled "occured"). */
export const teaserGeneratorTexts: GenerationTexts = {
  failure: 'Error generating teaser',
  empty: 'Error occured, please try again',
};

/** The input an earlier teaser was made from. */
export function teaserGeneratorInputOf(record: GenerationRecord): TeaserGeneratorInput {
  return { content: inputText(record, 'content') };
}
