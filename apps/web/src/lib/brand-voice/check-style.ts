import {
  brandVoicePaths,
  styleCheckSchema,
  type StyleCheck,
  type StyleCheckRequest,
} from '@gem/contracts/brand-voice';
import { useMutation } from '@tanstack/react-query';

import { api, ApiError, NetworkError } from '@/lib/api-client';

/** The style check of any text against the brand profile in force (issue 31). */
export function checkStyle(request: StyleCheckRequest, signal?: AbortSignal): Promise<StyleCheck> {
  return api.post(brandVoicePaths.check, request, { schema: styleCheckSchema, signal });
}

/** A check on demand: a mutation, as it reads nothing the page keeps. */
export function useCheckStyle() {
  return useMutation({ mutationFn: (request: StyleCheckRequest) => checkStyle(request) });
}

/** What a failed check says, in words a marketer can act on. */
export function checkErrorText(error: unknown): string {
  if (error instanceof NetworkError) return error.message;
  if (error instanceof ApiError) {
    if (error.status === 400) return error.issues[0]?.message ?? error.message;
    if (error.status === 429) return 'You have sent too many requests. Wait a moment and check again.';
    if (error.status < 500) return error.message;
  }
  return 'GEM could not check the text just now. Try again in a moment.';
}
