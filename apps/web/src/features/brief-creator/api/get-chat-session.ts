import {
  chatSessionDetailsSchema,
  chatSessionPath,
  type ChatSessionDetails,
} from '@gem/contracts/brief-creator';

import { api } from '@/lib/api-client';

/** One session of the user's, open or finished (ApiError 404 for none of theirs). */
export function getChatSession(sessionId: string, signal?: AbortSignal): Promise<ChatSessionDetails> {
  return api.get(chatSessionPath(sessionId), { schema: chatSessionDetailsSchema, signal });
}
