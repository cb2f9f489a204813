import {
  BRIEF_LIST_ITEM_MAX,
  BRIEF_LIST_MAX_ITEMS,
  BRIEF_RECOMMENDATION_MAX,
  BRIEF_TEXT_FIELD_MAX,
  mergeBriefData,
  type AssistantContent,
  type BriefChatEvent,
  type BriefData,
  type BriefLanguage,
  type ChatResponse,
  type PartialBriefData,
} from '@gem/contracts/brief-creator';
import { toStorableText } from '@gem/contracts/storable-text';
import { withoutBidiControls } from '@gem/contracts/text-rules';
import { cutAtGrapheme } from '@gem/contracts/text-rules';
import type { z } from 'zod';
import {
  addUsage,
  LlmError,
  repairTurns,
  type ChatTurn,
  type TokenUsage,
} from '../../integrations/llm/text-model';
import type { AiCallScope } from '../../lib/ai/ai-platform';
import {
  actionRequests,
  chatSystemPrompt,
  modelBriefFields,
  recommendationsSystemPrompt,
  repairRequest,
  targetAudienceSystemPrompt,
  turnShapes,
  type ChatTurnAnswer,
  type ModelTurnKind,
} from './brief-creator.prompts';
import type { Logger } from './brief-creator.store';

/**
 * The model's part of a brief chat turn (issue 12): the structured answer asked for, streamed or
 * whole (one repair attempt when it does not match the schema), and read into what is stored, what
 * the page is sent and what the call's record holds.
 */

export type TurnEvent = Extract<BriefChatEvent, { type: 'session' | 'delta' | 'restart' }>;

/** The most a turn's answer may take. */
export const MAX_OUTPUT_TOKENS = 4_096;

/** A model's text as GEM stores and shows it (see writing-tools' shownText). */
const clean = (value: string, max: number) =>
  cutAtGrapheme(withoutBidiControls(toStorableText(value)).trim(), max).trimEnd();

/** A numbered or bulleted item's marker ("1. ", "- "), which the chat adds itself. */
const itemMarker = /^(?:[-*•–]|\d{1,2}[.)])\s+/u;

/** Recommendations as the chat shows them in text (the list also travels as a list). */
export const recommendationsText = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');

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

/** What the model's answer shows while it is written: the part of the object meant for the user. */
function shownWhileWriting(kind: ModelTurnKind, partial: unknown): string {
  const value = (partial ?? {}) as Record<string, unknown>;
  if (kind === 'chat') return typeof value.standardAnswer === 'string' ? value.standardAnswer : '';
  if (kind === 'targetAudience') return typeof value.targetAudience === 'string' ? value.targetAudience : '';
  const items = Array.isArray(value.recommendations) ? value.recommendations : [];
  return recommendationsText(items.filter((item): item is string => typeof item === 'string'));
}

type ModelRequest = {
  system: string;
  messages: ChatTurn[];
  streamed: boolean;
  signal: AbortSignal;
  log: Logger;
};

/**
 * Asks the model for a turn's object, streamed (the user-facing part as deltas) or whole. An
 * answer that cannot be used is asked for once more, with the answer and what is wrong with it.
 */
async function* askModel<T>(
  kind: ModelTurnKind,
  scope: AiCallScope,
  request: ModelRequest,
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
        { tool: 'brief-creator', kind, reason: err.message, path: rejected?.path, issue: rejected?.message },
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

/** A turn's answer: what is stored, what the page is sent, and what the call's record holds. */
export type ModelAnswer = {
  content: AssistantContent;
  response: Omit<ChatResponse, 'sessionId'>;
  record: { output: unknown; usage: TokenUsage; model: string };
};

export type AnswerRequest = {
  kind: ModelTurnKind;
  brief: BriefData;
  language: BriefLanguage;
  /** The brand profile's block (ai.brandFor), at the end of every system prompt; null: none saved. */
  brand: string | null;
  today: string;
  /** The conversation so far as the model sees it (a chat turn's), for `system`. */
  conversation: (system: string) => Promise<ChatTurn[]>;
  streamed: boolean;
  signal: AbortSignal;
  log: Logger;
};

/**
 * The model's answer to a chat message or one of the two generating actions. An answer of the
 * built-in stand-in (issue 27) says so in what is stored, what the page is sent and the record.
 */
export async function* modelAnswer(
  scope: AiCallScope,
  { kind, brief, language, brand, today, conversation, streamed, signal, log }: AnswerRequest,
): AsyncGenerator<TurnEvent, ModelAnswer> {
  const withBrand = (system: string) => (brand ? `${system}\n\n${brand}` : system);
  const ask = { streamed, signal, log };
  const base = { proposedBriefData: brief, isAwaitingConfirmation: false };
  const none = { generatedTargetAudience: null, recommendations: [] as string[] };
  let answer: ModelAnswer;
  if (kind === 'chat') {
    // The profile counts toward the context: the history is cut to fit beside it.
    const system = withBrand(chatSystemPrompt(brief, language, today));
    const result = yield* askModel<ChatTurnAnswer>(kind, scope, {
      ...ask,
      system,
      messages: await conversation(system),
    });
    const standardAnswer = clean(result.object.standardAnswer, 20_000);
    const isAwaitingConfirmation = result.object.isAwaitingConfirmation;
    answer = {
      content: { standardAnswer, isAwaitingConfirmation },
      response: {
        ...none,
        response: standardAnswer,
        proposedBriefData: mergeBriefData(brief, updatesOf(result.object.briefUpdates)),
        isAwaitingConfirmation,
      },
      record: { output: result.object, usage: result.usage, model: result.model },
    };
  } else if (kind === 'targetAudience') {
    const result = yield* askModel<{ targetAudience: string }>(kind, scope, {
      ...ask,
      system: withBrand(targetAudienceSystemPrompt(brief, language)),
      messages: [{ role: 'user', content: actionRequests.targetAudience }],
    });
    const targetAudience = clean(result.object.targetAudience, BRIEF_TEXT_FIELD_MAX);
    // The user's own text is never replaced: the answer is a proposal beside it (issue 27).
    const targetAudienceApplied = brief.targetAudience.trim() === '';
    answer = {
      content: {
        standardAnswer: targetAudience,
        generatedTargetAudience: targetAudience,
        targetAudienceApplied,
      },
      response: {
        ...base,
        ...none,
        response: targetAudience,
        proposedBriefData: targetAudienceApplied ? { ...brief, targetAudience } : brief,
        generatedTargetAudience: targetAudience,
      },
      record: { output: result.object, usage: result.usage, model: result.model },
    };
  } else {
    const result = yield* askModel<{ recommendations: string[] }>(kind, scope, {
      ...ask,
      system: withBrand(recommendationsSystemPrompt(brief, language)),
      messages: [{ role: 'user', content: actionRequests.recommendations }],
    });
    const recommendations = result.object.recommendations
      .map((item) => clean(item.trim().replace(itemMarker, ''), BRIEF_RECOMMENDATION_MAX))
      .filter((item) => item !== '');
    const standardAnswer = recommendationsText(recommendations);
    answer = {
      content: { standardAnswer, recommendations },
      response: { ...base, ...none, response: standardAnswer, recommendations },
      record: { output: result.object, usage: result.usage, model: result.model },
    };
  }
  if (scope.model.provider === 'demo') {
    answer.content.demo = true;
    answer.response.demo = true;
    answer.record.output = { ...(answer.record.output as object), demo: true };
  }
  return answer;
}
