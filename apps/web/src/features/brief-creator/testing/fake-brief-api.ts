// The brief creator's API as the local test server answers it (testing/api-server.ts): the
// streamed chat turn, the sessions, the finished briefs, shaped as the real server shapes them.
import {
  briefCreatorPaths,
  emptyBriefData,
  type BriefChatEvent,
  type BriefData,
  type BriefMessage,
  type ChatResponse,
  type ChatSession,
  type FinishedBrief,
} from '@gem/contracts/brief-creator';
import { beforeEach } from 'vitest';

import { json, writeNdjson, type serveApi } from '@/testing/api-server';

export type ChatTurnReply =
  /** An NDJSON stream of events; `{ until }` holds it there until the promise settles. */
  | { kind: 'stream'; events: readonly (BriefChatEvent | { until: Promise<unknown> } | { raw: string })[] }
  /** Refused before the stream, in the contracts' error shape. */
  | { kind: 'error'; status: number; code: string; message?: string; headers?: Record<string, string> };

export const SESSION_ID = '3f2b8c1d-7a4e-4b6f-9c2d-1e5f8a9b0c3d';
export const FINISHED_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

/** A chat response as the server sends it in `final`. */
export function chatResponse(overrides: Partial<ChatResponse> = {}): ChatResponse {
  return {
    response: 'Thanks! What is the campaign called?',
    sessionId: SESSION_ID,
    proposedBriefData: emptyBriefData(),
    isAwaitingConfirmation: false,
    generatedTargetAudience: null,
    recommendations: [],
    ...overrides,
  };
}

/** Words as deltas, as the model writes them. */
export const deltaEvents = (text: string): BriefChatEvent[] =>
  (text.match(/\S+\s*|\s+/g) ?? []).map((t) => ({ type: 'delta', text: t }));

/** A whole successful turn: session, the answer as deltas, final. */
export function turn(overrides: Partial<ChatResponse> = {}): ChatTurnReply {
  const response = chatResponse(overrides);
  return {
    kind: 'stream',
    events: [
      { type: 'session', sessionId: response.sessionId },
      ...deltaEvents(response.response),
      { type: 'final', response },
    ],
  };
}

/** A turn that failed after the message was stored. */
export function failedTurn(message: string, code = 'ai_unavailable'): ChatTurnReply {
  return {
    kind: 'stream',
    events: [
      { type: 'session', sessionId: SESSION_ID },
      { type: 'error', sessionId: SESSION_ID, error: { code, message } },
    ],
  };
}

export const brief = (data: Partial<BriefData> = {}): BriefData => ({ ...emptyBriefData(), ...data });

let messageCount = 0;
/** A stored message; ids are uuids, as the contract wants. */
export function message(role: BriefMessage['role'], content: string, order: number): BriefMessage {
  messageCount += 1;
  const tail = String(messageCount).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${tail}`,
    role,
    content,
    timestamp: '2026-03-14T09:05:00.000Z',
    order,
  };
}

export const assistant = (standardAnswer: string, extra: object = {}) =>
  JSON.stringify({ standardAnswer, ...extra });

export function session(
  id: string,
  messages: BriefMessage[],
  lastActivityAt = '2026-03-14T09:05:00.000Z',
): ChatSession {
  return { id, createdAt: '2026-03-14T08:00:00.000Z', lastActivityAt, messages };
}

export function finishedBrief(overrides: Partial<FinishedBrief> & { data?: BriefData } = {}): FinishedBrief {
  const { data = brief(), ...rest } = overrides;
  return {
    id: FINISHED_ID,
    title: data.campaignName || 'Untitled brief',
    createdAt: '2026-03-14T10:30:00.000Z',
    messages: [],
    briefDataJson: JSON.stringify(data),
    sessionId: SESSION_ID,
    ...rest,
  };
}

type Server = ReturnType<typeof serveApi>;

/**
 * Installs the brief routes on the test server before each test. Tests queue chat turns with
 * `reply`, read the requests from `calls`, and set what the lists answer.
 */
export function fakeBriefApi(server: Server) {
  const state = {
    replies: [] as ChatTurnReply[],
    calls: [] as Record<string, unknown>[],
    sessions: [] as ChatSession[] | { status: number; code: string },
    finished: [] as FinishedBrief[] | { status: number; code: string },
  };

  beforeEach(() => {
    state.replies = [];
    state.calls = [];
    state.sessions = [];
    state.finished = [];

    server.on('POST', briefCreatorPaths.chatStream, async (_req, raw, res) => {
      state.calls.push(JSON.parse(raw) as Record<string, unknown>);
      const reply = state.replies.shift() ?? turn();
      if (reply.kind === 'error') {
        return json(
          res,
          reply.status,
          { error: { code: reply.code, message: reply.message ?? 'Refused.' } },
          reply.headers,
        );
      }
      await writeNdjson(res, reply.events);
    });
    server.on('GET', briefCreatorPaths.chatSessions, (_req, _raw, res) =>
      Array.isArray(state.sessions)
        ? json(res, 200, { chatSessions: state.sessions })
        : json(res, state.sessions.status, { error: { code: state.sessions.code, message: 'Refused.' } }),
    );
    server.on('GET', briefCreatorPaths.finishedBriefs, (_req, _raw, res) =>
      Array.isArray(state.finished)
        ? json(res, 200, { briefs: state.finished })
        : json(res, state.finished.status, { error: { code: state.finished.code, message: 'Refused.' } }),
    );
    server.on('GET', '/api/brief/finished-briefs/*', (req, _raw, res) => {
      const id = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.split('/').at(-1) ?? '');
      const found = Array.isArray(state.finished) ? state.finished.find((b) => b.id === id) : undefined;
      if (found) return json(res, 200, found);
      return json(res, 404, { error: { code: 'not_found', message: 'Brief not found.' } });
    });
  });

  return {
    state,
    reply: (...replies: ChatTurnReply[]) => state.replies.push(...replies),
  };
}
