import type { GenerationRecord, WritingToolInput } from '@gem/contracts/writing-tools';

import type { GenerationTexts } from '@/lib/ai/generation-errors';
import { inputText } from '@/lib/writing-tools/get-generation-history';

type PaidAdsInput = WritingToolInput<'paid-ads'>;

/** Spec §8 (the other tools' empty-result text is spelled "occured"). */
export const paidAdsTexts: GenerationTexts = {
  failure: 'Error generating paid ads',
  empty: 'Error occured, please try again',
};

/** The input earlier ads were made from. */
export function paidAdsInputOf(record: GenerationRecord): PaidAdsInput {
  return { content: inputText(record, 'content') };
}
