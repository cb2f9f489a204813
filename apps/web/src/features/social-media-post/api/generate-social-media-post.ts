import type { GeneratorInput } from '@gem/contracts/generators';

import type { GenerationTexts } from '@/lib/generators/generation-errors';
import { streamGeneration, type StreamGenerationOptions } from '@/lib/generators/generation-stream';
import { useGeneration } from '@/lib/generators/use-generation';

export type SocialMediaPostInput = GeneratorInput<'social-media-post'>;
export type PostFormat = SocialMediaPostInput['format'];
export type Persona = SocialMediaPostInput['persona'];

/** Spec §8 (the other tools' empty-result text is spelled "occured"). */
export const socialMediaPostTexts: GenerationTexts = {
  failure: 'Error generating post',
  empty: 'Error occured, please try again',
};

/** Spec §9: format is the word limit, 200 (short, professional network) or 300 (long). */
export const formatOptions: readonly { value: PostFormat; label: string }[] = [
  { value: 200, label: 'Short: up to 200 words' },
  { value: 300, label: 'Long: up to 300 words' },
];

/** Spec §9: the only persona. */
export const personaOptions: readonly { value: Persona; label: string }[] = [{ value: 'CEO', label: 'CEO' }];

/** Streams a post from the summary, the content and the description. */
export function generateSocialMediaPost(input: SocialMediaPostInput, options?: StreamGenerationOptions) {
  return streamGeneration('social-media-post', input, options);
}

export function useGenerateSocialMediaPost() {
  return useGeneration('social-media-post', socialMediaPostTexts);
}
