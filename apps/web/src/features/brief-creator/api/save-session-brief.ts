import {
  chatSessionBriefPath,
  saveSessionBriefResponseSchema,
  type BriefData,
  type SaveSessionBriefResponse,
} from '@gem/contracts/brief-creator';

import { api } from '@/lib/api-client';

/** Stores the brief as corrected by hand in the open session, so a reload shows it. */
export function saveSessionBrief(sessionId: string, briefData: BriefData): Promise<SaveSessionBriefResponse> {
  return api.request(chatSessionBriefPath(sessionId), {
    method: 'PUT',
    body: { briefData },
    schema: saveSessionBriefResponseSchema,
  });
}
