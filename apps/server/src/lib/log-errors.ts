import { stdSerializers } from 'pino';

/**
 * Fields that carry query parameters or row values: drizzle's DrizzleQueryError and PGlite's
 * errors (`params`, `query`, `queryOptions`), PostgreSQL's (`detail`: "Key (email)=(…)", `where`:
 * "parameter $1 = '…'", `internalQuery`), the AI SDK's request and response bodies, and the
 * model's answer in its errors (NoObjectGeneratedError's `text` and `response.messages`,
 * TypeValidationError's and JSONParseError's `value` and `text`).
 */
const leakyErrorFields = new Set([
  'params',
  'parameters',
  'query',
  'queryOptions',
  'detail',
  'where',
  'internalQuery',
  'requestBodyValues',
  'responseBody',
  'text',
  'value',
  'messages',
]);

/**
 * The AI SDK's validation errors quote the model's answer in their message: "Type validation
 * failed: Value: {…}.\nError message: …", "JSON parsing failed: Text: ….\nError message: …".
 */
const quotedAnswer =
  /(?<=(?:^|: )(?:Type validation failed: Value|JSON parsing failed: Text): )[\s\S]*?(?=\.\nError message: |$)/g;

type ErrorLike = Error & { code?: unknown };
const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';

/**
 * An error's message without the values of the query that failed. drizzle appends them
 * ("Failed query: insert … values ($1, $2)\nparams: ann@example.com,…"); PostgreSQL's data
 * exceptions (SQLSTATE class 22) quote the value they refused ('… for type uuid: "…"').
 */
function safeErrorMessage(err: unknown): string {
  if (!isErrorLike(err)) return String(err);
  let message = err.message;
  const params = message.indexOf('\nparams:');
  if (params >= 0 && (message.startsWith('Failed query:') || 'params' in err))
    message = message.slice(0, params);
  if (typeof err.code === 'string' && /^22[0-9A-Z]{3}$/.test(err.code))
    message = message.replace(/"(?:[^"]|"")*"/g, '"[redacted]"');
  if (message.includes('failed: ')) message = message.replace(quotedAnswer, '[redacted]');
  return message;
}

/** The stack with its first line (name and message) rebuilt from the safe message. */
function safeStack(err: ErrorLike, message: string): string | undefined {
  if (typeof err.stack !== 'string') return undefined;
  const frames = err.stack.indexOf('\n    at ');
  return `${String(err.name)}: ${message}${frames >= 0 ? err.stack.slice(frames) : ''}`;
}

/** The enumerable getters an error inherits (none for Error and its subclasses). */
function inheritedGetters(err: object): string[] {
  const keys: string[] = [];
  for (const key in err) {
    if (Object.prototype.hasOwnProperty.call(err, key)) continue;
    for (
      let p: object | null = Object.getPrototypeOf(err) as object | null;
      p;
      p = Object.getPrototypeOf(p) as object | null
    ) {
      const descriptor = Object.getOwnPropertyDescriptor(p, key);
      if (!descriptor) continue;
      if (descriptor.get) keys.push(key);
      break;
    }
  }
  return keys;
}

const readField = (value: object, key: string): unknown => {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
};

/** A copy with the leaky fields left out at any depth, and safe messages and stacks. */
function scrubbed(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const list: unknown[] = [];
    copies.set(value, list);
    for (const item of value) list.push(scrubbed(item, copies));
    return list;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  const plain = proto === Object.prototype || proto === null;
  if (!plain && !isErrorLike(value)) return value;
  const inherited = isErrorLike(value) ? inheritedGetters(value) : [];
  // The prototype is kept, so the logged type is still the error's class. A host error whose
  // fields are getters of its prototype (DOMException: they throw on anything but a real one)
  // gets a stand-in prototype with its constructor, and those fields as its own.
  const copy = Object.create(
    inherited.length === 0
      ? (proto as object | null)
      : Object.create(Error.prototype, {
          constructor: { value: (proto as { constructor: unknown }).constructor },
        }),
  ) as Record<string, unknown>;
  copies.set(value, copy);
  for (const key of inherited) {
    if (leakyErrorFields.has(key) || key === 'message') continue;
    Object.defineProperty(copy, key, {
      value: scrubbed(readField(value, key), copies),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  for (const key of Object.getOwnPropertyNames(value)) {
    if (leakyErrorFields.has(key)) continue;
    const enumerable = Object.getOwnPropertyDescriptor(value, key)?.enumerable ?? false;
    const field = (value as Record<string, unknown>)[key];
    Object.defineProperty(copy, key, {
      value: scrubbed(field, copies),
      enumerable,
      writable: true,
      configurable: true,
    });
  }
  if (isErrorLike(value)) {
    const message = safeErrorMessage(value);
    for (const [key, field] of [
      ['message', message],
      ['stack', safeStack(value, message)],
    ] as const)
      Object.defineProperty(copy, key, {
        value: field,
        enumerable: false,
        writable: true,
        configurable: true,
      });
  }
  return copy;
}

/**
 * pino's error serializer (type, message and stack with their causes, other fields), given a
 * copy of the error without query parameters or row values, here and in every cause. pino
 * leaves the cause's own fields out; they are added as `cause` (its kind, SQLSTATE, constraint).
 */
export function serializeError(err: unknown) {
  return serialized(scrubbed(err, new Map()), new Set());
}

type SerializedError = { type: string; message: string; stack: string; [key: string]: unknown };

function serialized(err: unknown, seen: Set<unknown>): SerializedError {
  const out: SerializedError = stdSerializers.err(err as Error);
  const cause = isErrorLike(err) ? err.cause : undefined;
  if (isErrorLike(err) && isErrorLike(cause) && !seen.has(cause)) {
    seen.add(err);
    // The message and stack are already part of the outer ones.
    const { message: _message, stack: _stack, ...fields } = serialized(cause, seen);
    out.cause = fields;
  }
  return out;
}
