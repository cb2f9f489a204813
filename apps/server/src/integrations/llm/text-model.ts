/**
 * The port every AI feature is handed: a text model that streams or returns an answer.
 * The adapter (ai-sdk-text-model.ts) speaks to the configured provider; modules never see
 * which one it is.
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

export type TextModelResult = {
  text: string;
  usage: TokenUsage;
  /** The model that answered, as the provider names it. */
  model: string;
};

/** The answer as it is written; `result` settles once the stream has been read to its end. */
export type TextStream = AsyncIterable<string> & { readonly result: Promise<TextModelResult> };

export interface TextModel {
  /** e.g. 'openai-compatible'. */
  readonly provider: string;
  /** The configured model (or Azure deployment). */
  readonly model: string;
  /** Streams the answer. Iterating it throws a LlmError when the call fails. */
  stream(request: TextModelRequest): TextStream;
  /** The whole answer at once. Rejects with a LlmError. */
  generate(request: TextModelRequest): Promise<TextModelResult>;
}

export type LlmFailure =
  /** The service answered 5xx or another error, or could not be reached. */
  | 'unavailable'
  /** The service kept answering 429. */
  | 'rate_limited'
  /** No complete answer within the timeout. */
  | 'timeout'
  /** The caller aborted (the browser disconnected). */
  | 'cancelled';

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
