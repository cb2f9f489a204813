import {
  APICallError,
  generateText,
  InvalidToolInputError,
  JSONParseError,
  NoObjectGeneratedError,
  Output,
  parsePartialJson,
  streamText,
  tool,
  ToolChoiceViolationError,
  TypeValidationError,
  type LanguageModel,
} from 'ai';
import type { AiConfig, AiServiceConfig } from '../../config';
import {
  LlmError,
  type ObjectModelRequest,
  type ObjectModelResult,
  type ObjectStream,
  type PartialObject,
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
 * json_schema), or as one function tool the model must call (`mode: 'tool'`). An answer that
 * is not JSON, does not match the schema, or never calls the tool fails as `invalid_output`,
 * and is not retried.
 */

type Logger = { warn(obj: object, msg: string): void };

export type AiSdkTextModelOptions = {
  ai: Pick<AiConfig, 'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs'> &
    Partial<Pick<AiConfig, 'structuredOutput'>>;
  service: AiServiceConfig;
  log?: Logger;
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
}

/** Why a structured answer could not be used, for the LlmError's message. */
function invalidOutputReason(err: unknown): string | undefined {
  if (err instanceof InvalidOutput) return err.message;
  if (ToolChoiceViolationError.isInstance(err)) return 'did not call the tool it was asked to call';
  if (!NoObjectGeneratedError.isInstance(err) && !InvalidToolInputError.isInstance(err)) return undefined;
  const cause = (err as { cause?: unknown }).cause;
  if (JSONParseError.isInstance(cause)) return 'is not valid JSON';
  if (TypeValidationError.isInstance(cause)) return 'does not match the schema';
  return 'is not a usable object';
}

/** The partial object in `json` so far, unless it is the one last published. */
async function partialOf(json: string, last: { key?: string }): Promise<object | undefined> {
  const parsed = await parsePartialJson(json);
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

const usageOf = (usage: { inputTokens?: number | undefined; outputTokens?: number | undefined }) =>
  ({
    promptTokens: usage.inputTokens ?? null,
    completionTokens: usage.outputTokens ?? null,
  }) satisfies TokenUsage;

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
        let usage: TokenUsage = { promptTokens: null, completionTokens: null };
        let modelId = service.model;
        for await (const part of call.stream) {
          if (part.type === 'text-delta' && part.text) {
            text += part.text;
            yield part.text;
          } else if (part.type === 'finish-step') {
            usage = usageOf(part.usage);
            modelId = part.response.modelId || modelId;
          } else if (part.type === 'error') {
            throw part.error;
          } else if (part.type === 'abort') {
            throw new Error('aborted');
          }
        }
        return { text, usage, model: modelId } satisfies TextModelResult;
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
        } satisfies TextModelResult;
      });
      return returned(call);
    },

    streamObject<T>(request: ObjectModelRequest<T>): ObjectStream<T> {
      const chunks = withRetries(request, async function* (signal) {
        const shape = structured(request, ai.structuredOutput);
        const call = streamText({
          ...(await promptOf(request)),
          ...shape.settings,
          abortSignal: signal,
          onError: () => undefined,
        });
        let json = '';
        const last: { key?: string } = {};
        let toolInputId: string | undefined;
        let toolCall: { input: unknown } | undefined;
        let usage: TokenUsage = { promptTokens: null, completionTokens: null };
        let modelId = service.model;
        for await (const part of call.stream) {
          if (shape.mode === 'json-schema' && part.type === 'text-delta' && part.text) {
            json += part.text;
            const partial = await partialOf(json, last);
            if (partial) yield partial as PartialObject<T>;
          } else if (shape.mode === 'tool' && part.type === 'tool-input-start') {
            if (part.toolName === shape.name) toolInputId ??= part.id;
          } else if (shape.mode === 'tool' && part.type === 'tool-input-delta') {
            if (part.id !== toolInputId) continue;
            json += part.delta;
            const partial = await partialOf(json, last);
            if (partial) yield partial as PartialObject<T>;
          } else if (shape.mode === 'tool' && part.type === 'tool-call') {
            if (part.toolName !== shape.name || toolCall) continue;
            if (part.invalid) throw part.error;
            toolCall = { input: part.input };
          } else if (part.type === 'finish-step') {
            usage = usageOf(part.usage);
            modelId = part.response.modelId || modelId;
          } else if (part.type === 'error') {
            throw part.error;
          } else if (part.type === 'abort') {
            throw new Error('aborted');
          }
        }
        let object: T;
        if (shape.mode === 'json-schema') {
          object = (await call.output) as T;
        } else {
          if (!toolCall) throw new InvalidOutput(`did not call the tool ${shape.name}`);
          object = toolCall.input as T;
        }
        return { object, usage, model: modelId } satisfies ObjectModelResult<T>;
      });
      return settledStream(chunks);
    },

    async object<T>(request: ObjectModelRequest<T>) {
      // eslint-disable-next-line require-yield -- one object at the end, no partials on the way
      const call = withRetries(request, async function* (signal) {
        const shape = structured(request, ai.structuredOutput);
        const answer = await generateText({
          ...(await promptOf(request)),
          ...shape.settings,
          abortSignal: signal,
        });
        let object: T;
        if (shape.mode === 'json-schema') {
          try {
            object = answer.output as T;
          } catch (err) {
            // No text to parse (e.g. the answer was cut off before it began).
            throw new InvalidOutput('is empty', { cause: err });
          }
        } else {
          const toolCall = answer.toolCalls.find((c) => c.toolName === shape.name);
          if (!toolCall) throw new InvalidOutput(`did not call the tool ${shape.name}`);
          if (toolCall.invalid) throw toolCall.error;
          object = toolCall.input as T;
        }
        return {
          object,
          usage: usageOf(answer.usage),
          model: answer.response.modelId || service.model,
        } satisfies ObjectModelResult<T>;
      });
      return returned(call);
    },
  };
}

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
  return {
    mode: 'json-schema' as const,
    name,
    settings: {
      output: Output.object({
        schema: request.schema,
        name: request.schemaName,
        description: request.schemaDescription,
      }),
    },
  };
}
