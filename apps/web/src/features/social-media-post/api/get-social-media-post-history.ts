import type { GenerationRecord } from '@gem/contracts/generators';
import { useQuery } from '@tanstack/react-query';

import {
  generationHistoryQueryOptions,
  getGenerationHistory,
  inputText,
} from '@/lib/generators/get-generation-history';

import type { SocialMediaPostInput } from './generate-social-media-post';

export function getSocialMediaPostHistory(signal?: AbortSignal) {
  return getGenerationHistory('social-media-post', signal);
}

export const socialMediaPostHistoryQueryOptions = generationHistoryQueryOptions('social-media-post');

export function useSocialMediaPostHistory() {
  return useQuery(socialMediaPostHistoryQueryOptions);
}

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
