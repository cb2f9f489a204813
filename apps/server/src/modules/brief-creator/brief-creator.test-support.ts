import {
  briefChatEventSchema,
  briefCreatorPaths,
  chatResponseSchema,
  chatSessionsResponseSchema,
  finishedBriefsResponseSchema,
  type BriefChatEvent,
  type ChatRequest,
  type ChatResponse,
} from '@gem/contracts/brief-creator';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import { expect } from 'vitest';
import { useAiHarness } from '../../../test/ai-harness';

/**
 * What the brief creator's end-to-end test files (brief-creator.<subject>.test.ts) share: the
 * harness (the real AI adapter against the OpenAI-compatible test server, the real database:
 * PGlite, and PostgreSQL when TEST_DATABASE_URL is set), the calls over HTTP, and the scripted
 * answers. Not a test file itself.
 */

/** A chat turn's structured answer, with every brief field null unless given. */
export function turn(
  standardAnswer: string,
  updates: Record<string, unknown> = {},
  isAwaitingConfirmation = false,
) {
  return { kind: 'object' as const, value: briefChatTurn(standardAnswer, updates, isAwaitingConfirmation) };
}

export const filledBrief = {
  campaignName: 'CFO Webinar 2027',
  campaignType: ['Webinar'],
  primaryObjective: 'Win 40 qualified leads among CFOs of mid-size manufacturers.',
  keyMessages: 'Cash flow visibility pays for itself.',
  channels: ['LinkedIn', 'Email'],
  activityKPIs: ['300 registrations'],
  businessKPIs: ['40 SQLs'],
  eventDate: '2027-03-18',
};

export const finalOf = (events: BriefChatEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== 'final') throw new Error(`no final event: ${JSON.stringify(events)}`);
  return last.response;
};

export const rolesOf = (messages: { role: string }[]) => messages.map((m) => m.role);

/**
 * For a test file of the brief creator: the harness (started once before the file's tests,
 * closed after them; useAiHarness) and the calls to its main app as a given user.
 */
export function useBriefCreatorHarness() {
  const t = useAiHarness();

  async function postJson(path: string, user: string, body: ChatRequest | object) {
    return t.main.inject({
      method: 'POST',
      url: path,
      headers: { authorization: await t.bearer(user) },
      payload: body,
    });
  }

  async function chat(user: string, body: ChatRequest): Promise<ChatResponse> {
    const res = await postJson(briefCreatorPaths.chat, user, body);
    expect(res.statusCode, res.body).toBe(200);
    return chatResponseSchema.parse(res.json());
  }

  async function chatStream(user: string, body: ChatRequest): Promise<BriefChatEvent[]> {
    const res = await postJson(briefCreatorPaths.chatStream, user, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    return res.body
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => briefChatEventSchema.parse(JSON.parse(line)));
  }

  async function get(path: string, user: string) {
    return t.main.inject({ method: 'GET', url: path, headers: { authorization: await t.bearer(user) } });
  }

  async function sessionsOf(user: string) {
    const res = await get(briefCreatorPaths.chatSessions, user);
    expect(res.statusCode).toBe(200);
    return chatSessionsResponseSchema.parse(res.json()).chatSessions;
  }

  /** A session of `user` accepted as a finished brief with `data`; its ids. */
  async function acceptedBrief(user: string, data: Record<string, unknown>) {
    t.ai.enqueue(turn('Noted.', data));
    const { sessionId } = await chat(user, {
      message: `About ${String(data.campaignName)}`,
      language: 'English',
    });
    const { finishedBriefId } = await chat(user, { message: '', sessionId, confirmJsonResponse: true });
    return { sessionId, briefId: finishedBriefId! };
  }

  async function finishedList(user: string, query = '') {
    const res = await get(`${briefCreatorPaths.finishedBriefs}${query}`, user);
    expect(res.statusCode, res.body).toBe(200);
    return finishedBriefsResponseSchema.parse(res.json()).briefs;
  }

  async function send(method: 'PUT' | 'POST' | 'DELETE', url: string, user: string, payload?: object) {
    return t.main.inject({
      method,
      url,
      headers: { authorization: await t.bearer(user) },
      ...(payload ? { payload } : {}),
    });
  }

  return { t, postJson, chat, chatStream, get, sessionsOf, acceptedBrief, finishedList, send };
}
