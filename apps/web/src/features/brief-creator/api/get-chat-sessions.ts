import {
  briefCreatorPaths,
  chatSessionsResponseSchema,
  type ChatSessionsResponse,
} from '@gem/contracts/brief-creator';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getChatSessions(signal?: AbortSignal): Promise<ChatSessionsResponse> {
  return api.get(briefCreatorPaths.chatSessions, { schema: chatSessionsResponseSchema, signal });
}

export const chatSessionsQueryOptions = queryOptions({
  queryKey: ['brief-creator', 'chat-sessions'],
  queryFn: ({ signal }) => getChatSessions(signal),
  // A turn changes the list; the chat invalidates it after each one.
  staleTime: 0,
});

export function useChatSessions() {
  return useQuery(chatSessionsQueryOptions);
}
