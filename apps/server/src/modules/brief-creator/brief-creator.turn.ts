import { randomUUID } from 'node:crypto';
import {
  assistantContentOf,
  briefChatFailureTexts,
  emptyBriefData,
  mergeBriefData,
  turnKindOf,
  type AssistantContent,
  type BriefData,
  type BriefLanguage,
  type BriefTurnKind,
  type ChatFailure,
  type ChatResponse,
  type ParsedChatRequest,
} from '@gem/contracts/brief-creator';
import type { StyleCheck } from '@gem/contracts/brand-voice';
import { briefStyleText } from '@gem/contracts/brief-creator-style';
import type { Db } from '../../db/client';
import { finishedBriefs } from '../../db/schema/index';
import type { ChatTurn } from '../../integrations/llm/text-model';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import { isCancelled, toStreamError } from '../../lib/ai/ai-errors';
import {
  MAX_OUTPUT_TOKENS,
  modelAnswer,
  recommendationsText,
  type TurnEvent,
} from './brief-creator.model-answer';
import { acceptedAnswer, apologies, conversationOf, UNTITLED_BRIEF } from './brief-creator.prompts';
import { sameBrief, type BriefStore, type Logger } from './brief-creator.store';

/**
 * One brief chat turn (issue 12, spec §4 Brief chat): a message, or one of the three actions, on a
 * session of the user's. It holds the session while it runs, stores the user's message before the
 * model is called (it is never lost), asks the model (brief-creator.model-answer.ts), merges the
 * brief fields it fills in, and stores the answer, or the service layer's apology when the model
 * failed. 'Accept brief' asks no model: the session becomes a finished brief.
 */

export type TurnContext = {
  userId: string;
  log: Logger;
  /** Aborted when the browser goes away. */
  signal: AbortSignal;
};

export type TurnDeps = {
  db: Db;
  ai: AiPlatform;
  store: BriefStore;
  /** The model's context window in tokens (GEM_AI_CONTEXT_TOKENS): the chat's history is cut to fit it. */
  contextTokens: number;
  /** Today's date, YYYY-MM-DD, for the model to resolve relative dates. */
  today: () => string;
};

/**
 * A turn's outcome: the chat response, the style check of the model's answer when it wrote one,
 * and that of the brief after the turn when it has words in it.
 */
export type TurnResult = { response: ChatResponse; style?: StyleCheck; briefStyle?: StyleCheck };

/** The failure as the page is told it: the spec's words for this kind of turn, with the code. */
export function failureOf(kind: BriefTurnKind, err: unknown): ChatFailure {
  const { code, retryAfterSeconds } = toStreamError(err);
  return {
    code,
    message: briefChatFailureTexts[kind],
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

export function createTurnRunner({ db, ai, store, contextTokens, today }: TurnDeps) {
  /**
   * The conversation so far as the model sees it: user texts and the answers that succeeded, the
   * newest that fit the model's context beside `system`.
   */
  async function conversation(sessionId: string, system: string, log: Logger): Promise<ChatTurn[]> {
    const turns: { role: 'user' | 'assistant'; text: string }[] = [];
    for (const row of await store.dialogue(sessionId)) {
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
   * Stores the message (a new chat's session with it), with the brief as the user sees it, in
   * the session the turn holds.
   */
  async function begin(
    request: ParsedChatRequest,
    { sessionId, turnId }: { sessionId: string; turnId: string },
    { userId, log }: TurnContext,
  ): Promise<BriefData> {
    try {
      if (request.retryLastMessage) await store.ensureUnanswered(sessionId);
      const stored = request.sessionId ? await store.storedBrief(sessionId, log) : emptyBriefData();
      const brief = request.currentBriefData ? mergeBriefData(stored, request.currentBriefData) : stored;
      await db.transaction(async (tx) => {
        if (!request.sessionId) await store.create(tx, { sessionId, userId, turnId });
        await store.append(tx, sessionId, [
          ...(sameBrief(brief, stored) ? [] : [{ role: 'system' as const, content: JSON.stringify(brief) }]),
          ...(request.message.trim() === '' ? [] : [{ role: 'user' as const, content: request.message }]),
        ]);
      });
      return brief;
    } catch (err) {
      if (request.sessionId) await store.release(sessionId, turnId, log);
      throw err;
    }
  }

  /** 'Accept brief': the finished brief, and the session closed. */
  async function accept(
    { sessionId, brief, language }: { sessionId: string; brief: BriefData; language: BriefLanguage },
    { userId, log }: TurnContext,
  ): Promise<ChatResponse> {
    const base = { sessionId, proposedBriefData: brief, isAwaitingConfirmation: false };
    const none = { generatedTargetAudience: null, recommendations: [] as string[] };
    try {
      const title = brief.campaignName.trim() || UNTITLED_BRIEF;
      const response = acceptedAnswer(title, language);
      const finishedBriefId = randomUUID();
      await db.transaction(async (tx) => {
        await tx
          .insert(finishedBriefs)
          .values({ id: finishedBriefId, userId, sessionId, title, briefData: brief });
        await store.append(tx, sessionId, [
          {
            role: 'assistant',
            content: JSON.stringify({ standardAnswer: response } satisfies AssistantContent),
          },
        ]);
        await store.finish(tx, sessionId);
      });
      return { ...base, ...none, response, finishedBriefId };
    } catch (err) {
      log.error({ err }, 'could not accept the brief');
      return { ...base, ...none, response: apologies.confirmation, error: failureOf('confirmation', err) };
    }
  }

  /**
   * One turn. Yields `session` once the user's message is stored (errors before it are plain
   * error answers: 400, 404, 409, 429, 503), then the answer's deltas; returns the chat response,
   * with `error` set when the turn failed after that, and the style check of the assistant's
   * answer when the model wrote one.
   */
  return async function* runTurn(
    request: ParsedChatRequest,
    context: TurnContext,
    streamed: boolean,
  ): AsyncGenerator<TurnEvent, TurnResult> {
    const { userId, log, signal } = context;
    const kind = turnKindOf(request);
    const language: BriefLanguage = request.language;
    if (request.sessionId) await store.ownedSession(userId, request.sessionId);

    // The brand profile in force goes into every prompt of the turn; its version is recorded.
    const brandOf =
      kind === 'confirmation' ? null : await ai.brandFor('brief-creator', MAX_OUTPUT_TOKENS, log);
    const scope =
      kind === 'confirmation' || !brandOf
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
            brand: brandOf.brand,
          });

    const sessionId = request.sessionId ?? randomUUID();
    let turnId: string;
    try {
      turnId = request.sessionId ? await store.hold(userId, sessionId, signal) : randomUUID();
    } catch (err) {
      await scope?.end({ outcome: 'cancelled', errorCode: 'session_busy' });
      throw err;
    }
    let brief: BriefData;
    try {
      brief = await begin(request, { sessionId, turnId }, context);
    } catch (err) {
      await scope?.fail(err);
      throw err;
    }

    try {
      yield { type: 'session', sessionId };
      if (kind === 'confirmation' || !scope || !brandOf) {
        return { response: await accept({ sessionId, brief, language }, context) };
      }

      try {
        const answer = yield* modelAnswer(scope, {
          kind,
          brief,
          language,
          brand: brandOf.block?.text ?? null,
          today: today(),
          conversation: (system) => conversation(sessionId, system, log),
          streamed,
          signal,
          log,
        });
        const response: ChatResponse = { ...answer.response, sessionId };
        const proposed = response.proposedBriefData ?? brief;
        await db.transaction(async (tx) => {
          await store.append(tx, sessionId, [
            ...(sameBrief(proposed, brief)
              ? []
              : [{ role: 'system' as const, content: JSON.stringify(proposed) }]),
            { role: 'assistant', content: JSON.stringify(answer.content) },
          ]);
        });
        // The style check of what the assistant said; it is the one recorded with the turn.
        const style =
          response.response.trim() === '' ? null : brandOf.brand.check(response.response, 'brief-creator');
        // And of the brief as it stands after the turn, as the exports write it: the page shows
        // these findings on the brief and applies their fixes to its fields.
        const briefText = briefStyleText(proposed).text;
        const briefStyle = briefText === '' ? null : brandOf.brand.check(briefText, 'brief-creator');
        // A call that cannot be recorded fails (end() throws); the answer is stored already.
        await scope.end({ outcome: 'succeeded', ...answer.record, style });
        return { response, ...(style ? { style } : {}), ...(briefStyle ? { briefStyle } : {}) };
      } catch (err) {
        const recordFailed = await scope.fail(err).then(
          () => undefined,
          (recordErr: unknown) => recordErr,
        );
        const failure = failureOf(kind, recordFailed ?? err);
        if (!isCancelled(err)) {
          // The apology stays in the session, so a resumed chat shows what happened.
          const apology = { standardAnswer: apologies[kind], error: failure } satisfies AssistantContent;
          await db
            .transaction((tx) =>
              store.append(tx, sessionId, [{ role: 'assistant', content: JSON.stringify(apology) }]),
            )
            .catch((storeErr: unknown) => log.error({ err: storeErr }, 'could not store the apology'));
        }
        return {
          response: {
            sessionId,
            proposedBriefData: brief,
            isAwaitingConfirmation: false,
            generatedTargetAudience: null,
            recommendations: [],
            response: apologies[kind],
            error: failure,
          },
        };
      }
    } finally {
      await store.release(sessionId, turnId, log);
    }
  };
}
