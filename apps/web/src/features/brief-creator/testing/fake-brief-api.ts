// The brief creator's API as the local test server answers it (testing/api-server.ts): the
// streamed chat turn, the sessions, the finished briefs, shaped as the real server shapes them.
import {
  briefCreatorPaths,
  briefDataOfSystemMessage,
  emptyBriefData,
  type BriefChatEvent,
  type BriefData,
  type BriefMessage,
  type ChatResponse,
  type ChatSession,
  type ChatSessionDetails,
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

/** The id at `from` segments from the path's end (0: the last). */
const idInPath = (url: string | undefined, from = 0) =>
  decodeURIComponent(new URL(url ?? '/', 'http://x').pathname.split('/').at(-1 - from) ?? '');

/** Folded as the server folds a search (case and accents aside). */
const folded = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ł/gi, 'l')
    .toLowerCase();

/**
 * Installs the brief routes on the test server before each test. Tests queue chat turns with
 * `reply`, read the requests from `calls` (chat turns), `saves` (briefs saved by hand) and
 * `requests`, and set what the lists and a session by id answer.
 */
export function fakeBriefApi(server: Server) {
  const state = {
    replies: [] as ChatTurnReply[],
    calls: [] as Record<string, unknown>[],
    sessions: [] as ChatSession[] | { status: number; code: string },
    finished: [] as FinishedBrief[] | { status: number; code: string },
    /** Sessions by id beyond the open ones (finished, or older than the list). */
    sessionDetails: {} as Record<string, ChatSessionDetails>,
    /** `PUT …/brief`: the session and the brief saved. */
    saves: [] as { sessionId: string; briefData: BriefData }[],
    /** Finished briefs deleted (and not restored), by id. */
    deleted: [] as FinishedBrief[],
    /** The session 'Start from this brief' answers with. */
    started: null as ChatSession | null,
    /** A refusal for delete, restore or start, in the contracts' shape. */
    refuse: null as { status: number; code: string; message: string } | null,
  };

  beforeEach(() => {
    state.replies = [];
    state.calls = [];
    state.sessions = [];
    state.finished = [];
    state.sessionDetails = {};
    state.saves = [];
    state.deleted = [];
    state.started = null;
    state.refuse = null;

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
    server.on('GET', `${briefCreatorPaths.chatSessions}/*`, (req, _raw, res) => {
      const id = idInPath(req.url);
      const open = Array.isArray(state.sessions) ? state.sessions.find((s) => s.id === id) : undefined;
      const found =
        state.sessionDetails[id] ??
        (open ? { ...open, finishedAt: null, finishedBriefId: null, finishedBriefTitle: null } : undefined);
      if (found) return json(res, 200, found);
      return json(res, 404, { error: { code: 'not_found', message: 'No chat session with this id.' } });
    });
    server.on('PUT', `${briefCreatorPaths.chatSessions}/*`, (req, raw, res) => {
      const { briefData } = JSON.parse(raw) as { briefData: BriefData };
      state.saves.push({ sessionId: idInPath(req.url, 1), briefData });
      json(res, 200, { changed: true });
    });
    server.on('POST', briefCreatorPaths.chatSessions, (_req, _raw, res) => {
      if (state.refuse) return json(res, state.refuse.status, { error: state.refuse });
      if (!state.started)
        return json(res, 404, { error: { code: 'not_found', message: 'Brief not found.' } });
      if (Array.isArray(state.sessions)) state.sessions.unshift(state.started);
      json(res, 201, state.started);
    });
    server.on('GET', briefCreatorPaths.finishedBriefs, (req, _raw, res) => {
      if (!Array.isArray(state.finished)) {
        return json(res, state.finished.status, {
          error: { code: state.finished.code, message: 'Refused.' },
        });
      }
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const q = folded(query.get('q') ?? '').trim();
      const type = query.get('campaignType');
      const briefs = state.finished.filter(
        (b) =>
          folded(b.title).includes(q) &&
          (!type ||
            (briefDataOfSystemMessage(b.briefDataJson)?.campaignType as string[] | undefined)?.includes(
              type,
            )),
      );
      json(res, 200, { briefs });
    });
    server.on('GET', '/api/brief/finished-briefs/*', (req, _raw, res) => {
      const id = idInPath(req.url);
      const found = Array.isArray(state.finished) ? state.finished.find((b) => b.id === id) : undefined;
      if (found) return json(res, 200, found);
      return json(res, 404, { error: { code: 'not_found', message: 'Brief not found.' } });
    });
    server.on('DELETE', '/api/brief/finished-briefs/*', (req, _raw, res) => {
      if (state.refuse) return json(res, state.refuse.status, { error: state.refuse });
      const id = idInPath(req.url);
      const list = Array.isArray(state.finished) ? state.finished : [];
      const found = list.find((b) => b.id === id);
      if (!found) return json(res, 404, { error: { code: 'not_found', message: 'Brief not found.' } });
      state.finished = list.filter((b) => b.id !== id);
      state.deleted.push(found);
      json(res, 200, { id, deletedAt: '2026-03-14T11:00:00.000Z' });
    });
    server.on('POST', '/api/brief/finished-briefs/*', (req, _raw, res) => {
      const id = idInPath(req.url, 1);
      const found = state.deleted.find((b) => b.id === id);
      if (!found) return json(res, 404, { error: { code: 'not_found', message: 'Brief not found.' } });
      state.deleted = state.deleted.filter((b) => b.id !== id);
      state.finished = [...(Array.isArray(state.finished) ? state.finished : []), found];
      json(res, 200, found);
    });
  });

  return {
    state,
    reply: (...replies: ChatTurnReply[]) => state.replies.push(...replies),
  };
}
