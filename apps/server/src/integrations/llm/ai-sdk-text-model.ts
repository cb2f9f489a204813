import {
  generateText,
  NoObjectGeneratedError,
  streamText,
  ToolChoiceViolationError,
  type LanguageModel,
} from 'ai';
import type { AiConfig, AiServiceConfig } from '../../config';
import type { Log } from '../../lib/logger';
import { languageModel } from './ai-sdk-providers';
import { retryingCalls, sleepFor } from './model-call-retries';
import { returned, settledStream } from './settled-stream';
import {
  CutOff,
  partialOf,
  readObject,
  structured,
  toolInputText,
  type RawAnswer,
  type Shape,
} from './structured-output';
import {
  addUsage,
  type FinishReason,
  type ObjectModelRequest,
  type ObjectModelResult,
  type ObjectStream,
  type PartialObject,
  type TextModel,
  type TextModelRequest,
  type TextModelResult,
  type TextStream,
  type TokenUsage,
} from './text-model';

/**
 * The TextModel adapter over the Vercel AI SDK. The provider comes from config; OpenAI,
 * Azure and OpenAI-compatible servers are all spoken to through the chat-completions API
 * (the one they share, and the one the test server speaks).
 *
 * Retries, the deadline and the caller's signal: model-call-retries.ts. The providers' models,
 * loaded when first used: ai-sdk-providers.ts.
 *
 * Objects are asked for with the schema as the answer's JSON schema (`response_format`
 * json_schema), or as one function tool the model must call (`mode: 'tool'`). What the model
 * wrote (the content, or the call's arguments; a model that answered the tool call as text, its
 * text) is read as real models write it (structured-answer.ts: in a fence, after a preamble,
 * before a note), in both modes, whole or streamed; partial objects are read from the first `{`.
 * An answer that still is not the schema's object fails as `invalid_output`, not retried, with
 * what a repair turn needs (`details.rejected`). An answer cut at the output limit (finish reason
 * `length`) before its object closed is asked for once more, then fails as `incomplete`.
 */

export type AiSdkTextModelOptions = {
  ai: Pick<AiConfig, 'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs'> &
    Partial<Pick<AiConfig, 'structuredOutput'>>;
  service: AiServiceConfig;
  log?: Pick<Log, 'warn'> & Partial<Pick<Log, 'info'>>;
  /**
   * Waits before a retry; resolves early when the signal aborts. Tests pass one that records
   * the waits and returns at once.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The clock for the deadline's bookkeeping and Retry-After dates (ms since the epoch). */
  now?: () => number;
};

const usageOf = (usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } = {}) =>
  ({
    promptTokens: usage.inputTokens ?? null,
    completionTokens: usage.outputTokens ?? null,
  }) satisfies TokenUsage;

const unknownUsage: TokenUsage = { promptTokens: null, completionTokens: null };

export function createAiSdkTextModel({
  ai,
  service,
  log,
  sleep = sleepFor,
  now = Date.now,
}: AiSdkTextModelOptions): TextModel {
  let model: Promise<LanguageModel> | undefined;
  /** One model call: a deadline, the caller's signal, and the retry loop around an attempt. */
  const withRetries = retryingCalls({ ai, provider: service.provider, log, sleep, now });

  const promptOf = async (request: TextModelRequest) => ({
    model: await (model ??= languageModel(service)),
    instructions: request.system,
    messages: request.messages,
    maxOutputTokens: request.maxOutputTokens,
    maxRetries: 0,
  });

  /** The object in a structured answer (structured-output.ts readObject), salvages logged. */
  const objectOf = <T>(raw: RawAnswer, request: ObjectModelRequest<T>, shape: Shape) =>
    readObject(raw, request, shape, (fields) =>
      log?.info?.(
        { provider: service.provider, ...fields },
        'structured answer read around what the model added',
      ),
    );

  /**
   * A structured call, and once more when its answer was cut before the object closed (a fresh
   * call, same request); cut again, it fails as `incomplete`.
   */
  async function* withOneMoreIfCut<Y, T>(
    request: ObjectModelRequest<T>,
    attempt: (signal: AbortSignal) => AsyncGenerator<Y, ObjectModelResult<T>>,
  ): AsyncGenerator<Y, ObjectModelResult<T>> {
    try {
      return yield* withRetries(request, attempt);
    } catch (err) {
      if (!(err instanceof CutOff)) throw err;
      log?.warn(
        { provider: service.provider, maxOutputTokens: request.maxOutputTokens },
        'structured answer cut at the output limit; asking once more',
      );
      const result = yield* withRetries(request, attempt);
      return { ...result, usage: addUsage(err.usage, result.usage) };
    }
  }

  return {
    provider: service.provider,
    model: service.model,

    stream(request): TextStream {
      const chunks = withRetries(request, async function* (signal) {
        const call = streamText({
          ...(await promptOf(request)),
          abortSignal: signal,
          // Errors arrive as stream parts and are thrown below; the SDK would log them too.
          onError: () => undefined,
        });
        let text = '';
        let usage = unknownUsage;
        let modelId = service.model;
        let finishReason: FinishReason = 'other';
        for await (const part of call.stream) {
          if (part.type === 'text-delta' && part.text) {
            text += part.text;
            yield part.text;
          } else if (part.type === 'finish-step') {
            usage = usageOf(part.usage);
            modelId = part.response.modelId || modelId;
            finishReason = part.finishReason;
          } else if (part.type === 'error') {
            throw part.error;
          } else if (part.type === 'abort') {
            throw new Error('aborted');
          }
        }
        return { text, usage, model: modelId, finishReason } satisfies TextModelResult;
      });
      return settledStream(chunks);
    },

    async generate(request) {
      // eslint-disable-next-line require-yield -- one answer at the end, no chunks on the way
      const call = withRetries(request, async function* (signal) {
        const answer = await generateText({ ...(await promptOf(request)), abortSignal: signal });
        return {
          text: answer.text,
          usage: usageOf(answer.usage),
          model: answer.response.modelId || service.model,
          finishReason: answer.finishReason,
        } satisfies TextModelResult;
      });
      return returned(call);
    },

    streamObject<T>(request: ObjectModelRequest<T>): ObjectStream<T> {
      const chunks = withOneMoreIfCut(request, async function* (signal) {
        const shape = structured(request, ai.structuredOutput);
        const call = streamText({
          ...(await promptOf(request)),
          ...shape.settings,
          abortSignal: signal,
          onError: () => undefined,
        });
        let content = '';
        let toolInput = '';
        const last: { key?: string } = {};
        let toolInputId: string | undefined;
        let toolCall: { input: unknown; invalid: boolean; error?: unknown } | undefined;
        let usage = unknownUsage;
        let modelId = service.model;
        let finishReason: FinishReason = 'other';
        for await (const part of call.stream) {
          if (part.type === 'text-delta' && part.text) {
            content += part.text;
            if (shape.mode !== 'json-schema') continue;
            const partial = await partialOf(content, last);
            if (partial) yield partial as PartialObject<T>;
          } else if (shape.mode === 'tool' && part.type === 'tool-input-start') {
            if (part.toolName === shape.name) toolInputId ??= part.id;
          } else if (shape.mode === 'tool' && part.type === 'tool-input-delta') {
            if (part.id !== toolInputId) continue;
            toolInput += part.delta;
            const partial = await partialOf(toolInput, last);
            if (partial) yield partial as PartialObject<T>;
          } else if (shape.mode === 'tool' && part.type === 'tool-call') {
            if (part.toolName !== shape.name || toolCall) continue;
            toolCall = part.invalid
              ? { input: part.input, invalid: true, error: part.error }
              : { input: part.input, invalid: false };
          } else if (part.type === 'finish-step') {
            usage = usageOf(part.usage);
            modelId = part.response.modelId || modelId;
            finishReason = part.finishReason;
          } else if (part.type === 'error') {
            // The model wrote text instead of the call: read below.
            if (ToolChoiceViolationError.isInstance(part.error)) continue;
            throw part.error;
          } else if (part.type === 'abort') {
            throw new Error('aborted');
          }
        }
        const raw: RawAnswer = { text: content, finishReason, usage, model: modelId };
        if (shape.mode === 'json-schema') {
          // The whole text: the SDK holds back deltas it cannot read as a partial object.
          raw.text = await call.text;
          raw.validated = await call.output.then(
            (object) => ({ object }),
            () => undefined,
          );
        } else if (!toolCall) {
          raw.noToolCall = shape.name;
        } else if (toolCall.invalid) {
          raw.text = toolInput || toolInputText(toolCall);
        } else {
          raw.validated = { object: toolCall.input };
        }
        return objectOf(raw, request, shape);
      });
      return settledStream(chunks);
    },

    async object<T>(request: ObjectModelRequest<T>) {
      // eslint-disable-next-line require-yield -- one object at the end, no partials on the way
      const call = withOneMoreIfCut(request, async function* (signal) {
        const shape = structured(request, ai.structuredOutput);
        let answer;
        try {
          answer = await generateText({
            ...(await promptOf(request)),
            ...shape.settings,
            abortSignal: signal,
          });
        } catch (err) {
          // The SDK could not read the answer's JSON, or the model wrote text instead of the
          // call: either way the error hands over what the model wrote.
          if (NoObjectGeneratedError.isInstance(err)) {
            const raw: RawAnswer = {
              text: err.text ?? '',
              finishReason: err.finishReason ?? 'other',
              usage: usageOf(err.usage),
              model: err.response?.modelId || service.model,
            };
            return objectOf(raw, request, shape);
          }
          if (ToolChoiceViolationError.isInstance(err)) {
            const raw: RawAnswer = {
              text: err.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
              finishReason: err.finishReason,
              usage: unknownUsage,
              model: err.modelId || service.model,
              noToolCall: shape.name,
            };
            return objectOf(raw, request, shape);
          }
          throw err;
        }
        const raw: RawAnswer = {
          text: answer.text,
          finishReason: answer.finishReason,
          usage: usageOf(answer.usage),
          model: answer.response.modelId || service.model,
        };
        if (shape.mode === 'json-schema') {
          // No output when there was no text (an answer cut before it began).
          if (answer.text !== '') raw.validated = { object: answer.output };
        } else {
          const toolCall = answer.toolCalls.find((c) => c.toolName === shape.name);
          if (!toolCall) raw.noToolCall = shape.name;
          else if (toolCall.invalid) raw.text = toolInputText(toolCall);
          else raw.validated = { object: toolCall.input };
        }
        return objectOf(raw, request, shape);
      });
      return returned(call);
    },
  };
}
