import type { z } from 'zod';

/**
 * The port every AI feature is handed: a text model that streams or returns an answer, as
 * text or as an object of a given shape. The adapter (ai-sdk-text-model.ts) speaks to the
 * configured provider; modules never see which one it is.
 */

export type ChatTurn = { role: 'user' | 'assistant'; content: string };

export type TextModelRequest = {
  /** The system prompt. */
  system: string;
  /** The conversation so far, ending with the user's turn. */
  messages: ChatTurn[];
  /** Aborts the call (the browser went away). */
  signal?: AbortSignal | undefined;
  maxOutputTokens?: number | undefined;
};

export type TokenUsage = { promptTokens: number | null; completionTokens: number | null };

/** Two calls' usage together; a count either call did not report stays unknown (null). */
export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  promptTokens: a.promptTokens === null || b.promptTokens === null ? null : a.promptTokens + b.promptTokens,
  completionTokens:
    a.completionTokens === null || b.completionTokens === null
      ? null
      : a.completionTokens + b.completionTokens,
});

export type TextModelResult = {
  text: string;
  usage: TokenUsage;
  /** The model that answered, as the provider names it. */
  model: string;
};

/** The answer as it is written; `result` settles once the stream has been read to its end. */
export type TextStream = AsyncIterable<string> & { readonly result: Promise<TextModelResult> };

/**
 * How the schema reaches the model: as the answer's JSON schema (`response_format`), or as
 * the arguments of one function tool the model is made to call, for models and servers
 * that only do tool calling.
 */
export type StructuredOutputMode = 'json-schema' | 'tool';

export type ObjectModelRequest<T> = TextModelRequest & {
  /** The answer's shape. The final object is validated against it. */
  schema: z.ZodType<T>;
  /** Names the shape for the model (the schema's or the tool's name); letters, digits, _ and -. */
  schemaName?: string | undefined;
  /** Describes the shape for the model. */
  schemaDescription?: string | undefined;
  /** Unless told, as configured (GEM_AI_STRUCTURED_OUTPUT, 'json-schema' by default). */
  mode?: StructuredOutputMode | undefined;
};

export type ObjectModelResult<T> = {
  /** The answer, validated against the schema. */
  object: T;
  usage: TokenUsage;
  /** The model that answered, as the provider names it. */
  model: string;
};

/** The object as it is being written: any field may still be missing or cut short. */
export type PartialObject<T> = T extends readonly (infer E)[]
  ? PartialObject<E>[]
  : T extends object
    ? { [K in keyof T]?: PartialObject<T[K]> }
    : T;

/**
 * The object as it is written, one growing partial object at a time (never validated);
 * `result` settles once the stream has been read to its end, with the validated object.
 */
export type ObjectStream<T> = AsyncIterable<PartialObject<T>> & {
  readonly result: Promise<ObjectModelResult<T>>;
};

export interface TextModel {
  /** e.g. 'openai-compatible'. */
  readonly provider: string;
  /** The configured model (or Azure deployment). */
  readonly model: string;
  /** Streams the answer. Iterating it throws a LlmError when the call fails. */
  stream(request: TextModelRequest): TextStream;
  /** The whole answer at once. Rejects with a LlmError. */
  generate(request: TextModelRequest): Promise<TextModelResult>;
  /** Streams an object of the schema's shape. Iterating it throws a LlmError when the call fails. */
  streamObject<T>(request: ObjectModelRequest<T>): ObjectStream<T>;
  /** The whole object at once, validated against the schema. Rejects with a LlmError. */
  object<T>(request: ObjectModelRequest<T>): Promise<ObjectModelResult<T>>;
}

export type LlmFailure =
  /** The service answered 5xx or another error, or could not be reached. */
  | 'unavailable'
  /** The service kept answering 429, or 503 with a Retry-After (it is busy). */
  | 'rate_limited'
  /** No complete answer within the timeout. */
  | 'timeout'
  /** The caller aborted (the browser disconnected). */
  | 'cancelled'
  /**
   * A structured answer that is not JSON, does not match the schema, or never came (the
   * model did not call the tool). Not retried; the cause says which, for logs.
   */
  | 'invalid_output';

/** Why a model call failed, after retries. Its message is for logs, never for users. */
export class LlmError extends Error {
  override name = 'LlmError';
  constructor(
    readonly failure: LlmFailure,
    message: string,
    readonly details: {
      /** The provider's HTTP status, when it answered with one. */
      status?: number | undefined;
      /** What the provider asked us to wait, in seconds. */
      retryAfterSeconds?: number | undefined;
      attempts?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: details.cause });
  }
}
