import {
  CHAT_SESSIONS_LISTED,
  turnKindOf,
  type BriefChatEvent,
  type BriefData,
  type ChatResponse,
  type ChatSessionDetails,
  type ChatSessionsResponse,
  type ParsedChatRequest,
  type SaveSessionBriefResponse,
} from '@gem/contracts/brief-creator';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefSessions, finishedBriefs } from '../../db/schema/index';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import { AppError } from '../../lib/app-error';
import { createFinishedBriefs } from './brief-creator.finished';
import { createBriefStore, NOT_FOUND, sameBrief, uuidPattern } from './brief-creator.store';
import { createTurnRunner, failureOf, type TurnContext } from './brief-creator.turn';

export { BRIEF_NOT_FOUND } from './brief-creator.finished';
export type { TurnContext } from './brief-creator.turn';

/**
 * The brief creator's use cases (issue 12, spec §4 Brief chat): a chat turn on a session of the
 * user's (brief-creator.turn.ts), whole or streamed; the user's sessions, one session, the brief
 * corrected by hand; and their finished briefs (brief-creator.finished.ts). The sessions are
 * stored by brief-creator.store.ts.
 */

export type BriefCreatorDeps = {
  db: Db;
  ai: AiPlatform;
  /** How long a turn may hold its session: longer than the model calls it can make. */
  turnLeaseMs: number;
  /** The model's context window in tokens (GEM_AI_CONTEXT_TOKENS): the chat's history is cut to fit it. */
  contextTokens: number;
  /** How long a second turn on a busy session waits before it is refused (409). */
  busyWaitMs?: number;
  /** Today's date, YYYY-MM-DD, for the model to resolve relative dates. */
  today?: () => string;
};

export function createBriefCreator({
  db,
  ai,
  turnLeaseMs,
  contextTokens,
  busyWaitMs = 30_000,
  today = () => new Date().toISOString().slice(0, 10),
}: BriefCreatorDeps) {
  const store = createBriefStore({ db, turnLeaseMs, busyWaitMs });
  const runTurn = createTurnRunner({ db, ai, store, contextTokens, today });

  return {
    /** A whole turn (spec §7 `POST api/brief/chat`). */
    async chat(request: ParsedChatRequest, context: TurnContext): Promise<ChatResponse> {
      const run = runTurn(request, context, false);
      for (;;) {
        const next = await run.next();
        if (next.done) return next.value.response;
      }
    },

    /**
     * A turn as NDJSON events. Resolves once the user's message is stored, so a failure up to
     * then is a plain error answer; the events after it end in `final` or `error`.
     */
    async stream(request: ParsedChatRequest, context: TurnContext): Promise<AsyncIterable<BriefChatEvent>> {
      const run = runTurn(request, context, true);
      const first = await run.next();
      const kind = turnKindOf(request);
      return (async function* events(): AsyncGenerator<BriefChatEvent> {
        let next = first;
        let sessionId: string | null = null;
        try {
          while (!next.done) {
            if (next.value.type === 'session') sessionId = next.value.sessionId;
            yield next.value;
            next = await run.next();
          }
        } catch (err) {
          context.log.error({ err }, 'brief chat turn failed');
          yield { type: 'error', sessionId, error: failureOf(kind, err) };
          return;
        }
        const { response, style, briefStyle } = next.value;
        if (response.error) yield { type: 'error', sessionId: response.sessionId, error: response.error };
        else
          yield {
            type: 'final',
            response,
            ...(style ? { style } : {}),
            ...(briefStyle ? { briefStyle } : {}),
          };
      })();
    },

    /** The user's unfinished sessions, most recent first (spec §7 `GET api/brief/chat-sessions`). */
    async sessions(userId: string): Promise<ChatSessionsResponse> {
      const sessions = await db
        .select()
        .from(briefSessions)
        .where(and(eq(briefSessions.userId, userId), isNull(briefSessions.finishedAt)))
        .orderBy(desc(briefSessions.lastActivityAt), desc(briefSessions.id))
        .limit(CHAT_SESSIONS_LISTED);
      const messages = await store.messagesOf(sessions.map((s) => s.id));
      return {
        chatSessions: sessions.map((s) => ({
          id: s.id,
          createdAt: s.createdAt.toISOString(),
          lastActivityAt: s.lastActivityAt.toISOString(),
          messages: messages.get(s.id) ?? [],
        })),
      };
    },

    /** One session of the user's, open or finished, with the brief it became; 404 for anyone else's. */
    async session(userId: string, sessionId: string): Promise<ChatSessionDetails> {
      if (!uuidPattern.test(sessionId)) throw new AppError(404, 'not_found', NOT_FOUND);
      const [row] = await db
        .select({ session: briefSessions, briefId: finishedBriefs.id, briefTitle: finishedBriefs.title })
        .from(briefSessions)
        .leftJoin(
          finishedBriefs,
          and(eq(finishedBriefs.sessionId, briefSessions.id), isNull(finishedBriefs.deletedAt)),
        )
        .where(and(eq(briefSessions.id, sessionId), eq(briefSessions.userId, userId)));
      if (!row) throw new AppError(404, 'not_found', NOT_FOUND);
      return {
        ...(await store.withMessages(row.session)),
        finishedAt: row.session.finishedAt?.toISOString() ?? null,
        finishedBriefId: row.briefId,
        finishedBriefTitle: row.briefTitle,
      };
    },

    /**
     * The brief as the user corrected it by hand (a field typed, a proposal applied, a
     * recommendation added), stored in their open session as a system message when it changed,
     * so a reload or another device shows it. Waits for a turn in progress, as a turn would.
     */
    async saveBrief(
      userId: string,
      sessionId: string,
      data: BriefData,
      { log, signal }: Omit<TurnContext, 'userId'>,
    ): Promise<SaveSessionBriefResponse> {
      if (!uuidPattern.test(sessionId)) throw new AppError(404, 'not_found', NOT_FOUND);
      await store.ownedSession(userId, sessionId);
      const turnId = await store.hold(userId, sessionId, signal);
      try {
        const stored = await store.storedBrief(sessionId, log);
        if (sameBrief(stored, data)) return { changed: false };
        await db.transaction((tx) =>
          store.append(tx, sessionId, [{ role: 'system', content: JSON.stringify(data) }]),
        );
        return { changed: true };
      } finally {
        await store.release(sessionId, turnId, log);
      }
    },

    ...createFinishedBriefs({ db, store }),
  };
}

export type BriefCreator = ReturnType<typeof createBriefCreator>;
