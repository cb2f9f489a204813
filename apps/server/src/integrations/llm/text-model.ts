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

/**
 * Why the model stopped: `stop` (it was done), `length` (cut at maxOutputTokens),
 * `content-filter`, `tool-calls`, `error`, `interrupted` (the stream ended without saying),
 * `other`.
 */
export type FinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'interrupted' | 'other';

export type TextModelResult = {
  text: string;
  usage: TokenUsage;
  /** The model that answered, as the provider names it. */
  model: string;
  /** `length`: the text is cut short; the caller decides what to do with it. */
  finishReason: FinishReason;
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
  /** Both calls' when a cut answer was asked for again. */
  usage: TokenUsage;
  /** The model that answered, as the provider names it. */
  model: string;
  /**
   * `length` only when the object closed and validated before the cut (the model went on
   * writing after it); a cut object is never returned.
   */
  finishReason: FinishReason;
};

/** The object as it is being written: any field may still be missing or cut short. */
export type PartialObject<T> = T extends readonly (infer E)[]
  ? PartialObject<E>[]
  : T extends object
    ? { [K in keyof T]?: PartialObject<T[K]> }
    : T;

/**
 * The object as it is written, one growing partial object at a time (never validated);
 * `result` settles once the stream has been read to its end, with the validated object. After an
 * answer cut at the output limit the object is asked for once more, and the partials start over.
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

/**
 * A structured answer that could not be used, for the one repair turn a caller may make: the
 * answer as the model wrote it (the content, or the tool call's arguments; cut to
 * REJECTED_TEXT_MAX characters) and the first thing wrong with it. Never for users; the logger
 * leaves `text` out.
 */
export type RejectedAnswer = {
  text: string;
  /** Where in the object, e.g. `briefUpdates.eventDate`; '' for the answer as a whole. */
  path: string;
  message: string;
};

export const REJECTED_TEXT_MAX = 12_000;

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
   * model did not call the tool), even after its JSON was looked for in fences and around
   * notes. Not retried; the cause says which, for logs; `details.rejected` what a repair turn needs.
   */
  | 'invalid_output'
  /**
   * A structured answer cut at the output limit (finish reason `length`) before its object was
   * whole, twice: the call was made once more, and was cut again.
   */
  | 'incomplete';

/**
 * The turns that ask once more after an unusable structured answer: the answer as the
 * assistant's turn (so the model sees what it wrote) and a request, written by the caller, that
 * names what is wrong with it.
 */
export function repairTurns(
  messages: readonly ChatTurn[],
  rejected: RejectedAnswer | undefined,
  request: (issue: Pick<RejectedAnswer, 'path' | 'message'> | undefined) => string,
): ChatTurn[] {
  const answer = rejected?.text.trim() ?? '';
  return [
    ...messages,
    // Providers refuse an empty assistant turn (an answer that never came has no text).
    ...(answer === '' ? [] : [{ role: 'assistant' as const, content: answer }]),
    { role: 'user', content: request(rejected) },
  ];
}

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
      /** For `invalid_output`: the answer and what is wrong with it. */
      rejected?: RejectedAnswer | undefined;
    } = {},
  ) {
    super(message, { cause: details.cause });
  }
}
