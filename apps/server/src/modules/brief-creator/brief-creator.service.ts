import { randomUUID } from 'node:crypto';
import {
  assistantContentOf,
  BRIEF_LIST_ITEM_MAX,
  BRIEF_LIST_MAX_ITEMS,
  BRIEF_RECOMMENDATION_MAX,
  BRIEF_TEXT_FIELD_MAX,
  briefChatFailureTexts,
  briefDataOfSystemMessage,
  CHAT_SESSIONS_LISTED,
  emptyBriefData,
  mergeBriefData,
  turnKindOf,
  type AssistantContent,
  type BriefChatEvent,
  type BriefData,
  type BriefLanguage,
  type BriefMessage,
  type BriefTurnKind,
  type ChatFailure,
  type ChatResponse,
  type ChatSession,
  type ChatSessionDetails,
  type ChatSessionsResponse,
  type DeletedFinishedBrief,
  type FinishedBrief,
  type FinishedBriefsQuery,
  type FinishedBriefsResponse,
  type ParsedChatRequest,
  type PartialBriefData,
  type SaveSessionBriefResponse,
} from '@gem/contracts/brief-creator';
import { toStorableText, withoutBidiControls } from '@gem/contracts/generators';
import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { briefMessages, briefSessions, finishedBriefs } from '../../db/schema/index';
import {
  addUsage,
  LlmError,
  repairTurns,
  type ChatTurn,
  type TokenUsage,
} from '../../integrations/llm/text-model';
import type { AiCall, AiCallScope, AiPlatform } from '../../lib/ai/ai-platform';
import { isCancelled, toStreamError } from '../../lib/ai/ai-errors';
import { AppError } from '../../lib/app-error';
import { fold } from '../../lib/search-text';
import {
  acceptedAnswer,
  actionRequests,
  apologies,
  chatSystemPrompt,
  conversationOf,
  modelBriefFields,
  recommendationsSystemPrompt,
  repairRequest,
  targetAudienceSystemPrompt,
  turnShapes,
  UNTITLED_BRIEF,
  type ChatTurnAnswer,
  type ModelTurnKind,
} from './brief-creator.prompts';

/**
 * The brief creator's use cases (issue 12, spec §4 Brief chat): a chat turn (a message, or one
 * of the three actions) on a session of the user's, and the user's sessions and finished briefs.
 *
 * A turn holds its session while it runs (a lease row in the database, so two tabs or two
 * instances never interleave one session's messages: the second waits), stores the user's message
 * before the model is called (it is never lost), asks the model for a structured answer (one
 * repair attempt when it does not match the schema), merges the brief fields it fills in, and
 * stores the answer, or the service layer's apology when the model failed.
 */

type Logger = AiCall['log'];

export type TurnContext = {
  userId: string;
  log: Logger;
  /** Aborted when the browser goes away. */
  signal: AbortSignal;
};

type TurnEvent = Extract<BriefChatEvent, { type: 'session' | 'delta' | 'restart' }>;

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

const NOT_FOUND = 'No chat session with this id.';
const ALREADY_ACCEPTED = 'This brief was already accepted: it is in Finished Briefs.';
const NOTHING_TO_RETRY = 'The last message has its answer already: there is nothing to send again.';
const BUSY =
  'This chat is still answering a message sent from another tab or window. Wait for that answer, then send again.';
export const BRIEF_NOT_FOUND = 'Brief not found.';

/** How many of a session's newest system messages are tried for its brief data. */
const STORED_BRIEFS_TRIED = 20;

/** Spec §8's words for brief data that cannot be read, and what the user can do. */
const UNREADABLE_BRIEF_MESSAGE =
  'Error fetching brief data from session messages. Start a new chat to go on.';

/** The most finished briefs listed. */
const FINISHED_LISTED = 100;

const uuidPattern = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;

/** A model's text as GEM stores and shows it (see writing-tools' shownText). */
const clean = (value: string, max: number) =>
  cutAtGrapheme(withoutBidiControls(toStorableText(value)).trim(), max).trimEnd();

/** The most a turn's answer may take. */
const MAX_OUTPUT_TOKENS = 4_096;

/** A numbered or bulleted item's marker ("1. ", "- "), which the chat adds itself. */
const itemMarker = /^(?:[-*•–]|\d{1,2}[.)])\s+/u;

/** The fields a chat answer fills in, cleaned and held to the brief's limits. */
function updatesOf(answer: ChatTurnAnswer['briefUpdates']): PartialBriefData {
  const updates: Record<string, unknown> = {};
  for (const field of modelBriefFields) {
    const value = answer[field];
    if (value === null || value === undefined) continue;
    if (field === 'campaignType') {
      updates[field] = [...new Set(value as string[])];
    } else if (Array.isArray(value)) {
      updates[field] = value
        .map((item) => clean(item, BRIEF_LIST_ITEM_MAX))
        .filter((item) => item !== '')
        .slice(0, BRIEF_LIST_MAX_ITEMS);
    } else if (field === 'eventDate') {
      updates[field] = value;
    } else {
      updates[field] = clean(value as string, BRIEF_TEXT_FIELD_MAX);
    }
  }
  return updates as PartialBriefData;
}

const sameBrief = (a: BriefData, b: BriefData) => JSON.stringify(a) === JSON.stringify(b);

/** Recommendations as the chat shows them in text (the list also travels as a list). */
const recommendationsText = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');

/** What the model's answer shows while it is written: the part of the object meant for the user. */
function shownWhileWriting(kind: ModelTurnKind, partial: unknown): string {
  const value = (partial ?? {}) as Record<string, unknown>;
  if (kind === 'chat') return typeof value.standardAnswer === 'string' ? value.standardAnswer : '';
  if (kind === 'targetAudience') return typeof value.targetAudience === 'string' ? value.targetAudience : '';
  const items = Array.isArray(value.recommendations) ? value.recommendations : [];
  return recommendationsText(items.filter((item): item is string => typeof item === 'string'));
}

type MessageRow = typeof briefMessages.$inferSelect;

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

export function createBriefCreator({
  db,
  ai,
  turnLeaseMs,
  contextTokens,
  busyWaitMs = 30_000,
  today = () => new Date().toISOString().slice(0, 10),
}: BriefCreatorDeps) {
  type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

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

  /** Takes the session for one turn, waiting while another turn holds it. Returns the turn's id. */
  async function holdSession(userId: string, sessionId: string, signal: AbortSignal): Promise<string> {
    const turnId = randomUUID();
    const giveUpAt = Date.now() + busyWaitMs;
    for (let attempt = 0; ; attempt += 1) {
      const taken = await db
        .update(briefSessions)
        .set({ turnId, turnLeaseUntil: sql`now() + ${turnLeaseMs} * interval '1 millisecond'` })
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
  }

  async function releaseSession(sessionId: string, turnId: string) {
    await db
      .update(briefSessions)
      .set({ turnId: null, turnLeaseUntil: null })
      .where(and(eq(briefSessions.id, sessionId), eq(briefSessions.turnId, turnId)));
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

  /**
   * The session's brief as its newest readable system message has it; empty when it has none.
   * A system message that cannot be read never empties the brief in silence: the newest readable
   * one before it stands (and the skip is logged), and when none can be read the turn fails.
   */
  async function storedBrief(sessionId: string, log: Logger): Promise<BriefData> {
    const rows = await db
      .select({ content: briefMessages.content })
      .from(briefMessages)
      .where(and(eq(briefMessages.sessionId, sessionId), eq(briefMessages.role, 'system')))
      .orderBy(desc(briefMessages.seq))
      .limit(STORED_BRIEFS_TRIED);
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
  }

  /**
   * For a retry: the session's last message must be the user's, still without an answer (the
   * failed answers after it do not count). 409 otherwise, as the answer stands already.
   */
  async function ensureUnanswered(sessionId: string) {
    const rows = await db
      .select({ role: briefMessages.role, content: briefMessages.content })
      .from(briefMessages)
      .where(and(eq(briefMessages.sessionId, sessionId), inArray(briefMessages.role, ['user', 'assistant'])))
      .orderBy(desc(briefMessages.seq))
      .limit(STORED_BRIEFS_TRIED);
    for (const row of rows) {
      if (row.role === 'user') return;
      if (!assistantContentOf(row.content).error) break;
    }
    throw new AppError(409, 'conflict', NOTHING_TO_RETRY);
  }

  /**
   * The conversation so far as the model sees it: user texts and the answers that succeeded, the
   * newest that fit the model's context beside `system`.
   */
  async function conversation(sessionId: string, system: string, log: Logger): Promise<ChatTurn[]> {
    const rows = await db
      .select({ role: briefMessages.role, content: briefMessages.content })
      .from(briefMessages)
      .where(and(eq(briefMessages.sessionId, sessionId), inArray(briefMessages.role, ['user', 'assistant'])))
      .orderBy(asc(briefMessages.seq));
    const turns: { role: 'user' | 'assistant'; text: string }[] = [];
    for (const row of rows) {
      if (row.role === 'user') {
        turns.push({ role: 'user', text: row.content });
        continue;
      }
      const content = assistantContentOf(row.content);
      if (content.error) continue;
      turns.push({
        role: 'assistant',
        text: content.recommendations ? recommendationsText(content.recommendations) : content.standardAnswer,
      });
    }
    const { turns: kept, leftOut } = conversationOf(turns, {
      system,
      contextTokens,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    });
    if (leftOut > 0) {
      log.info(
        { leftOut, kept: kept.length, contextTokens },
        "brief chat: the oldest turns left out of the model's context",
      );
    }
    return kept;
  }

  /**
   * Asks the model for a turn's object, streamed (the user-facing part as deltas) or whole. An
   * answer that cannot be used is asked for once more, with the answer and what is wrong with it.
   */
  async function* askModel<T>(
    kind: ModelTurnKind,
    scope: AiCallScope,
    request: { system: string; messages: ChatTurn[]; streamed: boolean; signal: AbortSignal; log: Logger },
  ): AsyncGenerator<TurnEvent, { object: T; usage: TokenUsage; model: string }> {
    const shape = turnShapes[kind];
    let shown = '';
    let usage: TokenUsage | undefined;
    let messages = request.messages;
    for (let attempt = 1; ; attempt += 1) {
      const call = {
        system: request.system,
        messages,
        schema: shape.schema as unknown as z.ZodType<T>,
        schemaName: shape.name,
        schemaDescription: shape.description,
        signal: request.signal,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
      };
      try {
        let result;
        if (request.streamed) {
          const stream = scope.model.streamObject(call);
          for await (const partial of stream) {
            const text = shownWhileWriting(kind, partial);
            if (text === shown) continue;
            scope.firstToken();
            if (text.startsWith(shown)) {
              yield { type: 'delta', text: withoutBidiControls(text.slice(shown.length)) };
            } else {
              yield { type: 'restart' };
              yield { type: 'delta', text: withoutBidiControls(text) };
            }
            shown = text;
          }
          result = await stream.result;
        } else {
          result = await scope.model.object(call);
        }
        return { ...result, usage: usage ? addUsage(usage, result.usage) : result.usage };
      } catch (err) {
        if (attempt > 1 || !(err instanceof LlmError) || err.failure !== 'invalid_output') throw err;
        const { rejected } = err.details;
        request.log.warn(
          {
            tool: 'brief-creator',
            kind,
            reason: err.message,
            path: rejected?.path,
            issue: rejected?.message,
          },
          'unusable answer; asking once more',
        );
        messages = repairTurns(request.messages, rejected, repairRequest);
        usage = { promptTokens: null, completionTokens: null };
        if (shown !== '') {
          yield { type: 'restart' };
          shown = '';
        }
      }
    }
  }

  /** The failure as the page is told it: the spec's words for this kind of turn, with the code. */
  function failureOf(kind: BriefTurnKind, err: unknown): ChatFailure {
    const { code, retryAfterSeconds } = toStreamError(err);
    return {
      code,
      message: briefChatFailureTexts[kind],
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  }

  /**
   * One turn. Yields `session` once the user's message is stored (errors before it are plain
   * error answers: 400, 404, 409, 429, 503), then the answer's deltas; returns the chat response,
   * with `error` set when the turn failed after that.
   */
  async function* runTurn(
    request: ParsedChatRequest,
    { userId, log, signal }: TurnContext,
    streamed: boolean,
  ): AsyncGenerator<TurnEvent, ChatResponse> {
    const kind = turnKindOf(request);
    const language: BriefLanguage = request.language;
    if (request.sessionId) await ownedSession(userId, request.sessionId);

    const scope =
      kind === 'confirmation'
        ? null
        : await ai.begin({
            userId,
            tool: 'brief-creator',
            input: {
              kind,
              sessionId: request.sessionId,
              message: request.message,
              language,
              ...(request.retryLastMessage ? { retry: true } : {}),
            },
            log,
          });

    let sessionId: string;
    let turnId: string;
    let brief: BriefData;
    try {
      if (request.sessionId) {
        sessionId = request.sessionId;
        turnId = await holdSession(userId, sessionId, signal);
      } else {
        sessionId = randomUUID();
        turnId = randomUUID();
      }
    } catch (err) {
      await scope?.end({ outcome: 'cancelled', errorCode: 'session_busy' });
      throw err;
    }

    try {
      if (request.retryLastMessage) await ensureUnanswered(sessionId);
      // The user's message (and corrections by hand) are stored before the model is called.
      const stored = request.sessionId ? await storedBrief(sessionId, log) : emptyBriefData();
      brief = request.currentBriefData ? mergeBriefData(stored, request.currentBriefData) : stored;
      await db.transaction(async (tx) => {
        if (!request.sessionId) {
          await tx.insert(briefSessions).values({
            id: sessionId,
            userId,
            turnId,
            turnLeaseUntil: sql`now() + ${turnLeaseMs} * interval '1 millisecond'`,
          });
        }
        await append(tx, sessionId, [
          ...(sameBrief(brief, stored) ? [] : [{ role: 'system' as const, content: JSON.stringify(brief) }]),
          ...(request.message.trim() === '' ? [] : [{ role: 'user' as const, content: request.message }]),
        ]);
      });
    } catch (err) {
      await scope?.fail(err);
      if (request.sessionId) await releaseSession(sessionId, turnId).catch(() => undefined);
      throw err;
    }

    try {
      yield { type: 'session', sessionId };
      const base = { sessionId, proposedBriefData: brief, isAwaitingConfirmation: false };
      const none = { generatedTargetAudience: null, recommendations: [] as string[] };

      if (kind === 'confirmation') {
        try {
          const title = brief.campaignName.trim() || UNTITLED_BRIEF;
          const response = acceptedAnswer(title, language);
          const finishedBriefId = randomUUID();
          await db.transaction(async (tx) => {
            await tx
              .insert(finishedBriefs)
              .values({ id: finishedBriefId, userId, sessionId, title, briefData: brief });
            await append(tx, sessionId, [
              {
                role: 'assistant',
                content: JSON.stringify({ standardAnswer: response } satisfies AssistantContent),
              },
            ]);
            await tx
              .update(briefSessions)
              .set({ finishedAt: sql`now()` })
              .where(eq(briefSessions.id, sessionId));
          });
          return { ...base, ...none, response, finishedBriefId };
        } catch (err) {
          log.error({ err }, 'could not accept the brief');
          return { ...base, ...none, response: apologies.confirmation, error: failureOf(kind, err) };
        }
      }

      const model = scope!;
      try {
        let content: AssistantContent;
        let response: ChatResponse;
        let output: unknown;
        let usage: TokenUsage;
        let modelId: string;
        if (kind === 'chat') {
          const system = chatSystemPrompt(brief, language, today());
          const answer = yield* askModel<ChatTurnAnswer>(kind, model, {
            system,
            messages: await conversation(sessionId, system, log),
            streamed,
            signal,
            log,
          });
          const standardAnswer = clean(answer.object.standardAnswer, 20_000);
          const proposed = mergeBriefData(brief, updatesOf(answer.object.briefUpdates));
          const isAwaitingConfirmation = answer.object.isAwaitingConfirmation;
          content = { standardAnswer, isAwaitingConfirmation };
          response = {
            ...base,
            ...none,
            response: standardAnswer,
            proposedBriefData: proposed,
            isAwaitingConfirmation,
          };
          ({ usage, model: modelId } = answer);
          output = answer.object;
        } else if (kind === 'targetAudience') {
          const answer = yield* askModel<{ targetAudience: string }>(kind, model, {
            system: targetAudienceSystemPrompt(brief, language),
            messages: [{ role: 'user', content: actionRequests.targetAudience }],
            streamed,
            signal,
            log,
          });
          const targetAudience = clean(answer.object.targetAudience, BRIEF_TEXT_FIELD_MAX);
          // The user's own text is never replaced: the answer is a proposal beside it (issue 27).
          const targetAudienceApplied = brief.targetAudience.trim() === '';
          content = {
            standardAnswer: targetAudience,
            generatedTargetAudience: targetAudience,
            targetAudienceApplied,
          };
          response = {
            ...base,
            ...none,
            response: targetAudience,
            proposedBriefData: targetAudienceApplied ? { ...brief, targetAudience } : brief,
            generatedTargetAudience: targetAudience,
          };
          ({ usage, model: modelId } = answer);
          output = answer.object;
        } else {
          const answer = yield* askModel<{ recommendations: string[] }>(kind, model, {
            system: recommendationsSystemPrompt(brief, language),
            messages: [{ role: 'user', content: actionRequests.recommendations }],
            streamed,
            signal,
            log,
          });
          const recommendations = answer.object.recommendations
            .map((item) => clean(item.trim().replace(itemMarker, ''), BRIEF_RECOMMENDATION_MAX))
            .filter((item) => item !== '');
          const standardAnswer = recommendationsText(recommendations);
          content = { standardAnswer, recommendations };
          response = { ...base, ...none, response: standardAnswer, recommendations };
          ({ usage, model: modelId } = answer);
          output = answer.object;
        }

        const proposed = response.proposedBriefData ?? brief;
        await db.transaction(async (tx) => {
          await append(tx, sessionId, [
            ...(sameBrief(proposed, brief)
              ? []
              : [{ role: 'system' as const, content: JSON.stringify(proposed) }]),
            { role: 'assistant', content: JSON.stringify(content) },
          ]);
        });
        // A call that cannot be recorded fails (end() throws); the answer is stored already.
        await model.end({ outcome: 'succeeded', output, usage, model: modelId });
        return response;
      } catch (err) {
        const recordFailed = await model.fail(err).then(
          () => undefined,
          (recordErr: unknown) => recordErr,
        );
        const failure = failureOf(kind, recordFailed ?? err);
        if (!isCancelled(err)) {
          // The apology stays in the session, so a resumed chat shows what happened.
          await db
            .transaction((tx) =>
              append(tx, sessionId, [
                {
                  role: 'assistant',
                  content: JSON.stringify({
                    standardAnswer: apologies[kind],
                    error: failure,
                  } satisfies AssistantContent),
                },
              ]),
            )
            .catch((storeErr: unknown) => log.error({ err: storeErr }, 'could not store the apology'));
        }
        return { ...base, ...none, response: apologies[kind], error: failure };
      }
    } finally {
      await releaseSession(sessionId, turnId).catch((err: unknown) =>
        log.warn({ err }, 'could not release the brief session; its lease expires by itself'),
      );
    }
  }

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

  /** The session's messages with it, as the lists show it. */
  async function withMessages(session: typeof briefSessions.$inferSelect): Promise<ChatSession> {
    const messages = await messagesOf([session.id]);
    return {
      id: session.id,
      createdAt: session.createdAt.toISOString(),
      lastActivityAt: session.lastActivityAt.toISOString(),
      messages: messages.get(session.id) ?? [],
    };
  }

  /** The user's finished brief that is not deleted; 404 otherwise (anyone else's, or none). */
  async function ownedFinished(userId: string, briefId: string) {
    if (!uuidPattern.test(briefId)) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
    const [row] = await db
      .select()
      .from(finishedBriefs)
      .where(
        and(
          eq(finishedBriefs.id, briefId),
          eq(finishedBriefs.userId, userId),
          isNull(finishedBriefs.deletedAt),
        ),
      );
    if (!row) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
    return row;
  }

  function toFinished(row: typeof finishedBriefs.$inferSelect, messages: BriefMessage[]): FinishedBrief {
    return {
      id: row.id,
      title: row.title,
      createdAt: row.createdAt.toISOString(),
      messages,
      briefDataJson: JSON.stringify(row.briefData),
      sessionId: row.sessionId,
    };
  }

  return {
    /** A whole turn (spec §7 `POST api/brief/chat`). */
    async chat(request: ParsedChatRequest, context: TurnContext): Promise<ChatResponse> {
      const run = runTurn(request, context, false);
      for (;;) {
        const next = await run.next();
        if (next.done) return next.value;
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
        const response = next.value;
        if (response.error) yield { type: 'error', sessionId: response.sessionId, error: response.error };
        else yield { type: 'final', response };
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
      const messages = await messagesOf(sessions.map((s) => s.id));
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
        ...(await withMessages(row.session)),
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
      await ownedSession(userId, sessionId);
      const turnId = await holdSession(userId, sessionId, signal);
      try {
        const stored = await storedBrief(sessionId, log);
        if (sameBrief(stored, data)) return { changed: false };
        await db.transaction((tx) =>
          append(tx, sessionId, [{ role: 'system', content: JSON.stringify(data) }]),
        );
        return { changed: true };
      } finally {
        await releaseSession(sessionId, turnId).catch((err: unknown) =>
          log.warn({ err }, 'could not release the brief session; its lease expires by itself'),
        );
      }
    },

    /** 'Start from this brief': a new session whose brief is the finished brief's data. */
    async startFromBrief(userId: string, briefId: string): Promise<ChatSession> {
      const brief = await ownedFinished(userId, briefId);
      const data = briefDataOfSystemMessage(JSON.stringify(brief.briefData));
      if (!data) throw new AppError(500, 'internal_error', 'The data of this brief cannot be read.');
      const sessionId = randomUUID();
      const session = await db.transaction(async (tx) => {
        const [created] = await tx.insert(briefSessions).values({ id: sessionId, userId }).returning();
        await append(tx, sessionId, [{ role: 'system', content: JSON.stringify(data) }]);
        return created!;
      });
      return withMessages(session);
    },

    /**
     * The user's finished briefs that are not deleted, newest first: those whose name holds `q`
     * (case and accents folded, as GEM's searches fold them) and whose types include `campaignType`.
     */
    async finishedBriefs(userId: string, query: FinishedBriefsQuery = {}): Promise<FinishedBriefsResponse> {
      const conditions: SQL[] = [eq(finishedBriefs.userId, userId), isNull(finishedBriefs.deletedAt)];
      if (query.campaignType) {
        conditions.push(
          sql`${finishedBriefs.briefData} -> 'campaignType' @> ${JSON.stringify([query.campaignType])}::jsonb`,
        );
      }
      const newestFirst = [desc(finishedBriefs.createdAt), desc(finishedBriefs.id)];
      const name = fold(query.q ?? '').trim();
      let rows: (typeof finishedBriefs.$inferSelect)[];
      if (name === '') {
        rows = await db
          .select()
          .from(finishedBriefs)
          .where(and(...conditions))
          .orderBy(...newestFirst)
          .limit(FINISHED_LISTED);
      } else {
        // Folding is done here, like every search's query (lib/search-text): only titles are read
        // for it, then the page's briefs.
        const titles = await db
          .select({ id: finishedBriefs.id, title: finishedBriefs.title })
          .from(finishedBriefs)
          .where(and(...conditions))
          .orderBy(...newestFirst);
        const ids = titles
          .filter((row) => fold(row.title).includes(name))
          .slice(0, FINISHED_LISTED)
          .map((row) => row.id);
        rows =
          ids.length === 0
            ? []
            : await db
                .select()
                .from(finishedBriefs)
                .where(inArray(finishedBriefs.id, ids))
                .orderBy(...newestFirst);
      }
      const messages = await messagesOf(rows.map((r) => r.sessionId));
      return { briefs: rows.map((row) => toFinished(row, messages.get(row.sessionId) ?? [])) };
    },

    /** One finished brief of the user's; 404 for anyone else's, a deleted one, or none. */
    async finishedBrief(userId: string, briefId: string): Promise<FinishedBrief> {
      const row = await ownedFinished(userId, briefId);
      const messages = await messagesOf([row.sessionId]);
      return toFinished(row, messages.get(row.sessionId) ?? []);
    },

    /** Deletes a finished brief of the user's: who and when are kept on the row, for Undo and the record. */
    async deleteFinishedBrief(userId: string, briefId: string): Promise<DeletedFinishedBrief> {
      if (!uuidPattern.test(briefId)) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
      const [row] = await db
        .update(finishedBriefs)
        .set({ deletedAt: sql`now()`, deletedBy: userId })
        .where(
          and(
            eq(finishedBriefs.id, briefId),
            eq(finishedBriefs.userId, userId),
            isNull(finishedBriefs.deletedAt),
          ),
        )
        .returning({ id: finishedBriefs.id, deletedAt: finishedBriefs.deletedAt });
      if (!row?.deletedAt) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
      return { id: row.id, deletedAt: row.deletedAt.toISOString() };
    },

    /** Undo: a deleted finished brief of the user's back in the lists (one that is not deleted stays). */
    async restoreFinishedBrief(userId: string, briefId: string): Promise<FinishedBrief> {
      if (!uuidPattern.test(briefId)) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
      const [row] = await db
        .update(finishedBriefs)
        .set({ deletedAt: null, deletedBy: null })
        .where(
          and(
            eq(finishedBriefs.id, briefId),
            eq(finishedBriefs.userId, userId),
            isNotNull(finishedBriefs.deletedAt),
          ),
        )
        .returning();
      const restored = row ?? (await ownedFinished(userId, briefId));
      const messages = await messagesOf([restored.sessionId]);
      return toFinished(restored, messages.get(restored.sessionId) ?? []);
    },
  };
}

export type BriefCreator = ReturnType<typeof createBriefCreator>;
