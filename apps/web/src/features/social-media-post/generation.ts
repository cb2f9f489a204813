import type { GenerationRecord, WritingToolInput } from '@gem/contracts/writing-tools';

import type { GenerationTexts } from '@/lib/ai/generation-errors';
import { inputText } from '@/lib/writing-tools/get-generation-history';

type SocialMediaPostInput = WritingToolInput<'social-media-post'>;
export type PostFormat = SocialMediaPostInput['format'];
export type Persona = SocialMediaPostInput['persona'];

/** Spec §8 (the other tools' empty-result text is spelled "occured"). */
export const socialMediaPostTexts: GenerationTexts = {
  failure: 'Error generating post',
  empty: 'Error occured, please try again',
};

/** Spec §8, the first step's texts: Summarize streams a summary of the document. */
export const summarizeTexts: GenerationTexts = {
  failure: 'Error summarizing text',
  empty: 'Error occured, please try again',
};

/** Spec §9: format is the word limit, 200 (short, professional network) or 300 (long). */
export const formatOptions: readonly { value: PostFormat; label: string }[] = [
  { value: 200, label: 'Short: up to 200 words' },
  { value: 300, label: 'Long: up to 300 words' },
];

/** Spec §9: the only persona. */
export const personaOptions: readonly { value: Persona; label: string }[] = [{ value: 'CEO', label: 'CEO' }];

/** The inputs an earlier post was made from (format and persona fall back to the defaults). */
export function socialMediaPostInputOf(record: GenerationRecord): SocialMediaPostInput {
  const format = record.input.format === 300 ? 300 : 200;
  return {
    summary: inputText(record, 'summary'),
    content: inputText(record, 'content'),
    description: inputText(record, 'description'),
    format,
    persona: 'CEO',
  };
}
