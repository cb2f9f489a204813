/**
 * The OpenAI-compatible test server's replies and requests: what a test scripts, what the server
 * records, how replies stream (tokens, JSON fragments) and what makes one valid over HTTP.
 */

/**
 * How the answer says it ended, instead of the usual `stop` (`tool_calls` for a tool call):
 * `length` for an answer cut at the request's max_tokens, `content_filter`.
 */
export type ScriptedFinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls';

export type ScriptedReply =
  /** A normal answer, streamed token by token when the client asks for a stream. */
  | {
      kind: 'text';
      text: string;
      tokenDelayMs?: number;
      firstTokenDelayMs?: number;
      finishReason?: ScriptedFinishReason;
    }
  /** An HTTP error in OpenAI's error shape, with Retry-After (seconds) or retry-after-ms when given. */
  | { kind: 'status'; status: number; retryAfterSeconds?: number; retryAfterMs?: number; message?: string }
  /** Accepts the request and never answers (until the client gives up or the server closes). */
  | { kind: 'hang' }
  /** Streams `afterTokens` tokens of `text`, then drops the connection. */
  | { kind: 'disconnect'; text: string; afterTokens: number; tokenDelayMs?: number }
  /** Streams `afterTokens` tokens of `text`, then keeps the connection open without writing. */
  | { kind: 'stall'; text: string; afterTokens: number; tokenDelayMs?: number }
  /**
   * A structured answer: `value` serialized as JSON, the content of a json_schema answer, or the
   * arguments of the tool call when the request offered tools. Streamed `chunkChars` characters
   * (default 8) at a time. `value` need not match the request's schema (to test a wrong shape).
   */
  | ({ kind: 'object'; value: unknown } & StructuredReplyOptions)
  /**
   * Like `object`, with the text as given: e.g. `'{"a":'` for an answer that is not JSON, or
   * JSON in a code fence, after a preamble or before a note, as real models send it.
   */
  | ({ kind: 'raw-json'; text: string } & StructuredReplyOptions);

type StructuredReplyOptions = {
  chunkChars?: number;
  tokenDelayMs?: number;
  firstTokenDelayMs?: number;
  finishReason?: ScriptedFinishReason;
  /**
   * Text the model writes before its tool call, as Claude and Mistral often do ("I'll update
   * the brief."); sent as the message's content beside the call. Only for a tool request.
   */
  preamble?: string;
};

/** What a request asked for instead of plain text: an answer of a JSON schema, or a tool call. */
export type StructuredRequest = {
  /** `json-schema`: `response_format.type === 'json_schema'`; `tool`: the request offered tools. */
  mode: 'json-schema' | 'tool';
  /** The schema's name, or the name of the tool the answer calls (tool_choice's, or the first). */
  name: string;
  /** The JSON schema: `response_format.json_schema.schema`, or the tool's `parameters`. */
  schema: unknown;
};

export type ChatMessage = { role: string; content: string };

export type RecordedRequest = {
  /** The path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  /** The query string's parameters (Azure's api-version). */
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: {
    model?: string;
    messages?: ChatMessage[];
    stream?: boolean;
    [key: string]: unknown;
  };
  /** Set when the request asked for structured output (json_schema, or tools). */
  structured?: StructuredRequest;
  /** When the request arrived (ms since the epoch). */
  receivedAt: number;
  /** When the first token of the answer was written (ms since the epoch), for benchmarks. */
  firstTokenAt?: number;
  /** The reply was written to the end. */
  finished: boolean;
  /** The client closed the connection before the reply was finished (a cancelled call). */
  closedByClient: boolean;
  /** The server dropped the connection on purpose (a `disconnect` reply). */
  droppedByServer: boolean;
};

/** Splits text into stream tokens: words with their following whitespace. */
export function tokenize(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits JSON text into stream fragments of `size` characters (code points). */
export function fragments(text: string, size = 8): string[] {
  const chars = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += step) out.push(chars.slice(i, i + step).join(''));
  return out;
}

/** Each reply kind, with what makes one valid (for replies scripted over HTTP). */
const replyKinds: Record<ScriptedReply['kind'], (r: Record<string, unknown>) => boolean> = {
  text: (r) => typeof r.text === 'string' && finishReasonFits(r),
  status: (r) => typeof r.status === 'number',
  hang: () => true,
  disconnect: (r) => typeof r.text === 'string' && typeof r.afterTokens === 'number',
  stall: (r) => typeof r.text === 'string' && typeof r.afterTokens === 'number',
  object: (r) => 'value' in r && finishReasonFits(r),
  'raw-json': (r) => typeof r.text === 'string' && finishReasonFits(r),
};

const finishReasons = new Set<unknown>(['stop', 'length', 'content_filter', 'tool_calls']);
const finishReasonFits = (r: Record<string, unknown>) =>
  r.finishReason === undefined || finishReasons.has(r.finishReason);

export function isReply(value: unknown): value is ScriptedReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Record<string, unknown>;
  const valid = Object.hasOwn(replyKinds, String(reply.kind))
    ? replyKinds[reply.kind as ScriptedReply['kind']]
    : undefined;
  return valid !== undefined && valid(reply);
}
