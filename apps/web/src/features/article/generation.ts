import type { GenerationRecord, WritingToolInput } from '@gem/contracts/writing-tools';

import type { GenerationTexts } from '@/lib/ai/generation-errors';
import { inputText } from '@/lib/writing-tools/get-generation-history';

type ArticleInput = WritingToolInput<'article'>;

/** Spec §8, the article's own texts (spelled "occurred", unlike the other tools). */
export const articleTexts: GenerationTexts = {
  failure: 'Error generating article',
  empty: 'Error occurred, please try again',
};

/** The inputs an earlier article was made from. */
export function articleInputOf(record: GenerationRecord): ArticleInput {
  return { content: inputText(record, 'content'), task: inputText(record, 'task') };
}
