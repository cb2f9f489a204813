import { randomUUID } from 'node:crypto';
import {
  assistantContentOf,
  briefDataOfSystemMessage,
  emptyBriefData,
  type BriefData,
  type BriefMessage,
  type ChatSession,
} from '@gem/contracts/brief-creator';
import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { briefMessages, briefSessions } from '../../db/schema/index';
import type { AiCall } from '../../lib/ai/ai-platform';
import { AppError } from '../../lib/app-error';

/**
 * The brief creator's sessions in the database (issue 12): a session of the user's, held by one
 * turn at a time (a lease row, so two tabs or two instances never interleave one session's
 * messages: the second waits), its messages appended in order, and its brief as the newest
 * readable system message has it.
 */

export type Logger = AiCall['log'];
type MessageRow = typeof briefMessages.$inferSelect;
export type SessionRow = typeof briefSessions.$inferSelect;

export const NOT_FOUND = 'No chat session with this id.';
const ALREADY_ACCEPTED = 'This brief was already accepted: it is in Finished Briefs.';
const NOTHING_TO_RETRY = 'The last message has its answer already: there is nothing to send again.';
const BUSY =
  'This chat is still answering a message sent from another tab or window. Wait for that answer, then send again.';

/** How many of a session's newest messages are tried for its brief data, or for a retry. */
const NEWEST_TRIED = 20;

/** Spec §8's words for brief data that cannot be read, and what the user can do. */
const UNREADABLE_BRIEF_MESSAGE =
  'Error fetching brief data from session messages. Start a new chat to go on.';

export const uuidPattern = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;

export const sameBrief = (a: BriefData, b: BriefData) => JSON.stringify(a) === JSON.stringify(b);

const toMessage = (row: MessageRow): BriefMessage => ({
  id: row.id,
  role: row.role,
  content: row.content,
  timestamp: row.createdAt.toISOString(),
  order: row.seq,
});

const abortable = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

export type BriefStoreDeps = {
  db: Db;
  /** How long a turn may hold its session: longer than the model calls it can make. */
  turnLeaseMs: number;
  /** How long a second turn on a busy session waits before it is refused (409). */
  busyWaitMs: number;
};

export function createBriefStore({ db, turnLeaseMs, busyWaitMs }: BriefStoreDeps) {
  const leaseUntil = () => sql`now() + ${turnLeaseMs} * interval '1 millisecond'`;

  /** The user's session; 404 for a missing or foreign one, 409 once its brief was accepted. */
  async function ownedSession(userId: string, sessionId: string) {
    const [session] = await db
      .select({ id: briefSessions.id, finishedAt: briefSessions.finishedAt })
      .from(briefSessions)
      .where(and(eq(briefSessions.id, sessionId), eq(briefSessions.userId, userId)));
    if (!session) throw new AppError(404, 'not_found', NOT_FOUND);
    if (session.finishedAt) throw new AppError(409, 'conflict', ALREADY_ACCEPTED);
    return session;
  }

  /** Appends messages after the session's last one and marks the session active. */
  async function append(
    tx: Tx,
    sessionId: string,
    messages: { role: MessageRow['role']; content: string }[],
  ) {
    if (messages.length === 0) return;
    const [last] = await tx
      .select({ seq: sql<number>`coalesce(max(${briefMessages.seq}), 0)`.mapWith(Number) })
      .from(briefMessages)
      .where(eq(briefMessages.sessionId, sessionId));
    const first = (last?.seq ?? 0) + 1;
    await tx.insert(briefMessages).values(messages.map((m, i) => ({ sessionId, seq: first + i, ...m })));
    await tx
      .update(briefSessions)
      .set({ lastActivityAt: sql`now()` })
      .where(eq(briefSessions.id, sessionId));
  }

  /** The sessions' messages, in order, by session. */
  async function messagesOf(sessionIds: string[]): Promise<Map<string, BriefMessage[]>> {
    const bySession = new Map<string, BriefMessage[]>(sessionIds.map((id) => [id, []]));
    if (sessionIds.length === 0) return bySession;
    const rows = await db
      .select()
      .from(briefMessages)
      .where(inArray(briefMessages.sessionId, sessionIds))
      .orderBy(asc(briefMessages.sessionId), asc(briefMessages.seq));
    for (const row of rows) bySession.get(row.sessionId)?.push(toMessage(row));
    return bySession;
  }

  return {
    ownedSession,
    append,
    messagesOf,

    /** A new session of the user's, held by the turn `turnId` (its first messages follow). */
    async create(
      tx: Tx,
      { sessionId, userId, turnId }: { sessionId: string; userId: string; turnId?: string },
    ) {
      const [created] = await tx
        .insert(briefSessions)
        .values({ id: sessionId, userId, ...(turnId ? { turnId, turnLeaseUntil: leaseUntil() } : {}) })
        .returning();
      return created!;
    },

    /** Takes the session for one turn, waiting while another turn holds it. Returns the turn's id. */
    async hold(userId: string, sessionId: string, signal: AbortSignal): Promise<string> {
      const turnId = randomUUID();
      const giveUpAt = Date.now() + busyWaitMs;
      for (let attempt = 0; ; attempt += 1) {
        const taken = await db
          .update(briefSessions)
          .set({ turnId, turnLeaseUntil: leaseUntil() })
          .where(
            and(
              eq(briefSessions.id, sessionId),
              eq(briefSessions.userId, userId),
              isNull(briefSessions.finishedAt),
              or(isNull(briefSessions.turnLeaseUntil), lt(briefSessions.turnLeaseUntil, sql`now()`)),
            ),
          )
          .returning({ id: briefSessions.id });
        if (taken.length > 0) return turnId;
        // Accepted in the other tab meanwhile: 409; gone: 404.
        await ownedSession(userId, sessionId);
        if (Date.now() >= giveUpAt || signal.aborted) throw new AppError(409, 'conflict', BUSY);
        await abortable(Math.min(1_000, 50 * 2 ** attempt), signal);
      }
    },

    /** Lets the session go, if the turn still holds it; logged, not thrown (the lease expires anyway). */
    async release(sessionId: string, turnId: string, log: Logger) {
      await db
        .update(briefSessions)
        .set({ turnId: null, turnLeaseUntil: null })
        .where(and(eq(briefSessions.id, sessionId), eq(briefSessions.turnId, turnId)))
        .catch((err: unknown) =>
          log.warn({ err }, 'could not release the brief session; its lease expires by itself'),
        );
    },

    /** Marks the session finished: its brief was accepted. */
    async finish(tx: Tx, sessionId: string) {
      await tx
        .update(briefSessions)
        .set({ finishedAt: sql`now()` })
        .where(eq(briefSessions.id, sessionId));
    },

    /**
     * The session's brief as its newest readable system message has it; empty when it has none.
     * A system message that cannot be read never empties the brief in silence: the newest readable
     * one before it stands (and the skip is logged), and when none can be read the turn fails.
     */
    async storedBrief(sessionId: string, log: Logger): Promise<BriefData> {
      const rows = await db
        .select({ content: briefMessages.content })
        .from(briefMessages)
        .where(and(eq(briefMessages.sessionId, sessionId), eq(briefMessages.role, 'system')))
        .orderBy(desc(briefMessages.seq))
        .limit(NEWEST_TRIED);
      if (rows.length === 0) return emptyBriefData();
      for (const [skipped, row] of rows.entries()) {
        const data = briefDataOfSystemMessage(row.content);
        if (!data) continue;
        if (skipped > 0)
          log.warn(
            { skipped },
            'the newest brief data of the session could not be read; the last readable one stands',
          );
        return data;
      }
      throw new AppError(500, 'internal_error', UNREADABLE_BRIEF_MESSAGE);
    },

    /**
     * For a retry: the session's last message must be the user's, still without an answer (the
     * failed answers after it do not count). 409 otherwise, as the answer stands already.
     */
    async ensureUnanswered(sessionId: string) {
      const rows = await db
        .select({ role: briefMessages.role, content: briefMessages.content })
        .from(briefMessages)
        .where(
          and(eq(briefMessages.sessionId, sessionId), inArray(briefMessages.role, ['user', 'assistant'])),
        )
        .orderBy(desc(briefMessages.seq))
        .limit(NEWEST_TRIED);
      for (const row of rows) {
        if (row.role === 'user') return;
        if (!assistantContentOf(row.content).error) break;
      }
      throw new AppError(409, 'conflict', NOTHING_TO_RETRY);
    },

    /** The session's user and assistant messages, oldest first. */
    async dialogue(sessionId: string) {
      return db
        .select({ role: briefMessages.role, content: briefMessages.content })
        .from(briefMessages)
        .where(
          and(eq(briefMessages.sessionId, sessionId), inArray(briefMessages.role, ['user', 'assistant'])),
        )
        .orderBy(asc(briefMessages.seq));
    },

    /** The session with its messages, as the lists show it. */
    async withMessages(session: SessionRow): Promise<ChatSession> {
      const messages = await messagesOf([session.id]);
      return {
        id: session.id,
        createdAt: session.createdAt.toISOString(),
        lastActivityAt: session.lastActivityAt.toISOString(),
        messages: messages.get(session.id) ?? [],
      };
    },
  };
}

export type BriefStore = ReturnType<typeof createBriefStore>;
