import { briefCreatorPaths, chatResponseSchema, type ChatRequest } from '@gem/contracts/brief-creator';
import { campaignSchema, campaignsPaths, type Campaign } from '@gem/contracts/campaigns';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import { expect } from 'vitest';
import type { AiToolsTest } from '../../../test/ai-harness';

/** What the campaigns' test files share: calls as a user, and campaigns opened from accepted briefs. */
export function campaignCalls(h: AiToolsTest) {
  async function call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    user: string,
    payload?: object,
  ) {
    return h.main.inject({ method, url, headers: { authorization: await h.bearer(user) }, payload });
  }

  /** A brief of `user`'s accepted in the brief creator with `data`; its id. */
  async function finishedBrief(user: string, data: Record<string, unknown>) {
    const chat = async (body: ChatRequest) => {
      const res = await call('POST', briefCreatorPaths.chat, user, body);
      expect(res.statusCode, res.body).toBe(200);
      return chatResponseSchema.parse(res.json());
    };
    h.ai.enqueue({ kind: 'object', value: briefChatTurn('Noted.', data, false) });
    const { sessionId } = await chat({ message: `About ${String(data.campaignName)}`, language: 'English' });
    const { finishedBriefId } = await chat({ message: '', sessionId, confirmJsonResponse: true });
    return finishedBriefId!;
  }

  async function openCampaign(user: string, data: Record<string, unknown>): Promise<Campaign> {
    const res = await call('POST', campaignsPaths.campaigns, user, {
      finishedBriefId: await finishedBrief(user, data),
    });
    expect(res.statusCode, res.body).toBe(201);
    return campaignSchema.parse(res.json());
  }

  return { call, finishedBrief, openCampaign };
}

/** The messages of a 400's issues, one per field. */
export const issuesOf = (res: { json(): unknown }) =>
  (res.json() as { error: { issues?: { message: string; path: string }[] } }).error.issues?.map(
    (i) => i.message,
  ) ?? [];
