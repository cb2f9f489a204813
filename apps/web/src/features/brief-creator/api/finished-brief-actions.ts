import {
  briefCreatorPaths,
  chatSessionSchema,
  deletedFinishedBriefSchema,
  finishedBriefPath,
  finishedBriefRestorePath,
  finishedBriefSchema,
  type ChatSession,
  type DeletedFinishedBrief,
  type FinishedBrief,
  type StartChatSessionRequest,
} from '@gem/contracts/brief-creator';

import { api } from '@/lib/api-client';

/** Deletes a finished brief of the user's (the server keeps who and when, for Undo). */
export function deleteFinishedBrief(briefId: string): Promise<DeletedFinishedBrief> {
  return api.request(finishedBriefPath(briefId), { method: 'DELETE', schema: deletedFinishedBriefSchema });
}

/** Undo: the deleted brief back in Finished Briefs. */
export function restoreFinishedBrief(briefId: string): Promise<FinishedBrief> {
  return api.post(finishedBriefRestorePath(briefId), undefined, { schema: finishedBriefSchema });
}

/** 'Start from this brief': a new session whose brief is the finished brief's data. */
export function startFromFinishedBrief(briefId: string): Promise<ChatSession> {
  const body: StartChatSessionRequest = { fromBriefId: briefId };
  return api.post(briefCreatorPaths.chatSessions, body, { schema: chatSessionSchema });
}
