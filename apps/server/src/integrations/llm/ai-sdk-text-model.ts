import { cutAtGrapheme } from '@gem/contracts/text-rules';
import {
  APICallError,
  generateText,
  InvalidToolInputError,
  NoObjectGeneratedError,
  Output,
  parsePartialJson,
  streamText,
  tool,
  ToolChoiceViolationError,
  type LanguageModel,
} from 'ai';
import type { AiConfig, AiServiceConfig } from '../../config';
import type { Log } from '../../lib/logger';
import { objectStart, parseAnswer } from './structured-answer';
import {
  addUsage,
  LlmError,
  REJECTED_TEXT_MAX,
  type FinishReason,
  type ObjectModelRequest,
  type ObjectModelResult,
  type ObjectStream,
  type PartialObject,
  type RejectedAnswer,
  type StructuredOutputMode,
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
 * Retries are ours, not the SDK's (its maxRetries is 0): a 429 or 5xx that arrives before
 * any text is retried at most `maxRetries` times, after the Retry-After the service asked
 * for (retry-after-ms or retry-after, seconds or a date) or else an exponential backoff. A
 * wait that would outlast the timeout is not started: the call fails at once. The timeout
 * covers one call with all its attempts and waits. A 503 that names a Retry-After is a busy
 * service (`rate_limited`), retried like a 429.
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

const datedApiVersion = /^\d{4}-\d{2}-\d{2}/;

/**
 * The configured provider's model. Each provider package is loaded only when it is the one
 * configured, at the first call, so a start does not pay for the other three.
 */
async function languageModel(service: AiServiceConfig): Promise<LanguageModel> {
  switch (service.provider) {
    case 'demo':
      throw new Error('the demo stand-in is spoken to as an OpenAI-compatible server (demo-text-model.ts)');
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: service.apiKey, baseURL: service.baseUrl }).chat(service.model);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: service.baseUrl,
        apiKey: service.apiKey,
        includeUsage: true,
        // Sends an object's schema as response_format json_schema (else only json_object).
        supportsStructuredOutputs: true,
      }).chatModel(service.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: service.apiKey, baseURL: service.baseUrl })(service.model);
    }
    case 'azure': {
      const { createAzure } = await import('@ai-sdk/azure');
      return createAzure({
        apiKey: service.apiKey,
        resourceName: service.resourceName,
        baseURL: service.baseUrl,
        apiVersion: service.apiVersion,
        // Dated API versions (e.g. 2024-10-21) only exist on the deployment URLs.
        useDeploymentBasedUrls: datedApiVersion.test(service.apiVersion),
      }).chat(service.deployment);
    }
  }
}

/** What the provider asked us to wait, in ms, from retry-after-ms or retry-after. */
function retryAfterMs(headers: Record<string, string> | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

type Classified = { error: LlmError; retryable: boolean; waitMs: number | undefined };

function abortError(callerSignal: AbortSignal | undefined, timeoutMs: number, cause?: unknown): LlmError {
  return callerSignal?.aborted
    ? new LlmError('cancelled', 'the caller aborted the model call', { cause })
    : new LlmError('timeout', `no complete answer within ${timeoutMs} ms`, { cause });
}

/** Sleeps, unless the signal aborts first. */
function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The model answered, but not with an object we can use. */
class InvalidOutput extends Error {
  override name = 'InvalidOutput';
  constructor(
    reason: string,
    readonly rejected: RejectedAnswer,
  ) {
    super(reason);
  }
}

/** An object cut at the output limit before it closed; asked for once more. */
class CutOff extends LlmError {
  constructor(readonly usage: TokenUsage) {
    super('incomplete', "the AI service's answer was cut at the output limit before its object was whole");
  }
}

/** Why a structured answer could not be used, for the LlmError's message. */
function invalidOutputReason(err: unknown): string | undefined {
  if (err instanceof InvalidOutput) return err.message;
  if (ToolChoiceViolationError.isInstance(err)) return 'did not call the tool it was asked to call';
  return undefined;
}

/** A structured answer as it came, before it is read. */
type RawAnswer = {
  /** The content, the tool call's arguments, or (a call written as text) the content. */
  text: string;
  finishReason: FinishReason;
  usage: TokenUsage;
  model: string;
  /** The object, when the SDK could already read and validate it. */
  validated?: { object: unknown } | undefined;
  /** The model was asked to call a tool and did not. */
  noToolCall?: string | undefined;
};

/** The text of a tool call's arguments the SDK could not use. */
function toolInputText(call: { input: unknown; error?: unknown }): string {
  if (InvalidToolInputError.isInstance(call.error)) return call.error.toolInput;
  return typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? '');
}

/** The partial object in `text` so far (from its first `{`), unless it is the one last published. */
async function partialOf(text: string, last: { key?: string }): Promise<object | undefined> {
  const start = objectStart(text);
  if (start < 0) return undefined;
  const parsed = await parsePartialJson(text.slice(start));
  if (parsed.state !== 'successful-parse' && parsed.state !== 'repaired-parse') return undefined;
  const { value } = parsed;
  if (typeof value !== 'object' || value === null) return undefined;
  const key = JSON.stringify(value);
  if (key === last.key) return undefined;
  last.key = key;
  return value;
}

/** An async generator as a stream whose `result` settles with its return value. */
function settledStream<Y, R>(
  chunks: AsyncGenerator<Y, R>,
): AsyncIterable<Y> & { readonly result: Promise<R> } {
  let settle!: { resolve: (r: R) => void; reject: (e: unknown) => void };
  const result = new Promise<R>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Whoever reads the stream sees the error; the promise must not count as unhandled.
  result.catch(() => undefined);

  async function* iterate() {
    try {
      settle.resolve(yield* chunks);
    } catch (err) {
      settle.reject(err);
      throw err;
    } finally {
      settle.reject(new LlmError('cancelled', 'the stream was left before its end'));
    }
  }
  return Object.assign(iterate(), { result });
}

/** Runs a generator that yields nothing to its end. */
async function returned<R>(call: AsyncGenerator<unknown, R>): Promise<R> {
  const next = await call.next();
  if (!next.done) throw new Error('a whole answer yielded a chunk');
  return next.value;
}

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

  /**
   * One model call: a deadline, the caller's signal, and the retry loop around `attempt`.
   * An attempt that has yielded anything is not retried.
   */
  async function* withRetries<Y, T>(
    request: TextModelRequest,
    attempt: (signal: AbortSignal) => AsyncGenerator<Y, T>,
  ): AsyncGenerator<Y, T> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), ai.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    const endsAt = now() + ai.timeoutMs;
    try {
      for (let attemptNo = 1; ; attemptNo += 1) {
        let wroteText = false;
        try {
          if (signal.aborted) throw abortError(request.signal, ai.timeoutMs);
          const run = attempt(signal);
          for (;;) {
            const next = await run.next();
            if (next.done) {
              if (signal.aborted) throw abortError(request.signal, ai.timeoutMs);
              return next.value;
            }
            wroteText = true;
            yield next.value;
          }
        } catch (err) {
          const { error, retryable, waitMs } = classify(err, attemptNo);
          if (!retryable || wroteText || attemptNo > ai.maxRetries) throw error;
          const wait = waitMs ?? ai.retryBaseDelayMs * 2 ** (attemptNo - 1);
          if (now() + wait >= endsAt) throw error;
          log?.warn(
            { provider: service.provider, status: error.details.status, attempt: attemptNo, waitMs: wait },
            'AI service call failed; retrying',
          );
          await sleep(wait, signal);
        }
      }
    } finally {
      clearTimeout(timer);
      // Stops the provider call when the consumer leaves early.
      if (!deadline.signal.aborted) deadline.abort();
    }

    function classify(err: unknown, attempts: number): Classified {
      if (err instanceof LlmError) return { error: err, retryable: false, waitMs: undefined };
      if (signal.aborted) {
        return { error: abortError(request.signal, ai.timeoutMs, err), retryable: false, waitMs: undefined };
      }
      const invalid = invalidOutputReason(err);
      if (invalid !== undefined) {
        return {
          error: new LlmError('invalid_output', `the AI service's answer ${invalid}`, {
            attempts,
            cause: err,
            rejected: err instanceof InvalidOutput ? err.rejected : undefined,
          }),
          retryable: false,
          waitMs: undefined,
        };
      }
      const apiError = APICallError.isInstance(err)
        ? err
        : APICallError.isInstance((err as { cause?: unknown })?.cause)
          ? ((err as { cause: APICallError }).cause as APICallError)
          : undefined;
      const status = apiError?.statusCode;
      const waitMs = retryAfterMs(apiError?.responseHeaders, now());
      const retryAfterSeconds = waitMs === undefined ? undefined : Math.ceil(waitMs / 1000);
      // A 503 that says when to come back is a busy service, not a broken one.
      if (status === 429 || (status === 503 && waitMs !== undefined)) {
        return {
          error: new LlmError('rate_limited', `the AI service answered ${status}`, {
            status,
            retryAfterSeconds,
            attempts,
            cause: err,
          }),
          retryable: true,
          waitMs,
        };
      }
      const message = status
        ? `the AI service answered ${status}`
        : `the AI service could not be used: ${err instanceof Error ? err.message : String(err)}`;
      return {
        error: new LlmError('unavailable', message, { status, retryAfterSeconds, attempts, cause: err }),
        // A 200 whose stream broke has status 200: only real 5xx answers are retried.
        retryable: status !== undefined && status >= 500,
        waitMs,
      };
    }
  }

  const promptOf = async (request: TextModelRequest) => ({
    model: await (model ??= languageModel(service)),
    instructions: request.system,
    messages: request.messages,
    maxOutputTokens: request.maxOutputTokens,
    maxRetries: 0,
  });

  /**
   * The object in a structured answer, read as real models write it; an answer cut before its
   * object closed is a CutOff, any other unusable one an InvalidOutput with what a repair needs.
   */
  async function objectOf<T>(
    raw: RawAnswer,
    request: ObjectModelRequest<T>,
    shape: Shape,
  ): Promise<ObjectModelResult<T>> {
    const done = (object: unknown) =>
      ({
        object: object as T,
        usage: raw.usage,
        model: raw.model,
        finishReason: raw.finishReason,
      }) satisfies ObjectModelResult<T>;
    if (raw.validated) return done(raw.validated.object);
    const parsed = await parseAnswer(
      raw.text,
      request.schema,
      shape.mode === 'tool' ? shape.name : undefined,
    );
    if (parsed.ok) {
      // Counted in the logs: how often the configured model needs this.
      log?.info?.(
        {
          provider: service.provider,
          mode: shape.mode,
          salvage: parsed.salvage,
          finishReason: raw.finishReason,
        },
        'structured answer read around what the model added',
      );
      return done(parsed.object);
    }
    if (raw.finishReason === 'length') throw new CutOff(raw.usage);
    const reason =
      raw.noToolCall !== undefined && !parsed.parsedJson
        ? `did not call the tool ${raw.noToolCall}`
        : parsed.parsedJson
          ? 'does not match the schema'
          : 'is not valid JSON';
    throw new InvalidOutput(reason, {
      text: cutAtGrapheme(raw.text, REJECTED_TEXT_MAX),
      path: parsed.issue.path,
      message: parsed.issue.message,
    });
  }

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

/** How an object was asked for, as reading its answer needs to know. */
type Shape = { mode: StructuredOutputMode; name: string };

/**
 * The schema as the call's output (json-schema) or as the one tool the model must call: as the
 * call asks, else as configured (GEM_AI_STRUCTURED_OUTPUT).
 */
function structured<T>(request: ObjectModelRequest<T>, configured: StructuredOutputMode = 'json-schema') {
  const name = request.schemaName ?? 'answer';
  if ((request.mode ?? configured) === 'tool') {
    return {
      mode: 'tool' as const,
      name,
      settings: {
        tools: { [name]: tool({ description: request.schemaDescription, inputSchema: request.schema }) },
        toolChoice: { type: 'tool' as const, toolName: name },
      },
    };
  }
  const output = Output.object({
    schema: request.schema,
    name: request.schemaName,
    description: request.schemaDescription,
  });
  return {
    mode: 'json-schema' as const,
    name,
    settings: {
      output: {
        ...output,
        // Partial objects from the first `{`, after a fence or a sentence; the SDK streams no
        // text it cannot read as one.
        parsePartialOutput: ({ text }: { text: string }) => {
          const start = objectStart(text);
          return start < 0
            ? Promise.resolve(undefined)
            : output.parsePartialOutput({ text: text.slice(start) });
        },
      },
    },
  };
}
