import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { hostname } from 'node:os';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  pino,
  symbols as pinoSymbols,
  stdSerializers,
  type DestinationStream,
  type LoggerOptions,
} from 'pino';
import type { Config } from '../config';

/**
 * pino options. Requests are logged as method + path only: no query string (it can carry
 * search terms or OAuth codes), no headers (tokens, cookies), never a body (one line per
 * request, RequestLogController). Any field named
 * like a secret or an e-mail is redacted wherever it appears. Errors go through serializeError,
 * which takes query parameters and row values out of database errors.
 */
export function loggerOptions(config: Pick<Config, 'log'>): LoggerOptions {
  return {
    level: config.log.level,
    redact: {
      paths: [
        'password',
        'token',
        'accessToken',
        'refreshToken',
        'idToken',
        'authorization',
        'email',
        '*.password',
        '*.token',
        '*.accessToken',
        '*.refreshToken',
        '*.idToken',
        '*.authorization',
        '*.email',
        'req.headers',
        'req.body',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
    ...(config.log.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

/**
 * What GEM's code logs through: pino's calls, an object and then the message. The process's
 * logger and a request's (`req.log`) are one. A part that makes fewer of the calls asks for just
 * those (`Pick<Log, 'warn'>`), so a test can hand it a small recording object.
 */
export type Log = {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
};

/** The process's one logger: the server, its adapters and its requests log through it. */
export function createLogger(config: Pick<Config, 'log'>): FastifyBaseLogger {
  const options = loggerOptions(config);
  // pino-pretty (development) runs in a transport thread of its own, which writes to stdout.
  return options.transport ? pino(options) : pino(options, logDestination());
}

/** What standard output may hold that its reader has not taken yet; past it, lines are dropped. */
const maxUnreadBytes = 4 * 1024 * 1024;
const quietened = new WeakSet<LogOutput>();

/** The part of a writable stream logDestination uses (process.stdout in the server). */
export type LogOutput = Pick<NodeJS.WritableStream, 'write' | 'on'> & {
  readonly writableLength: number;
  readonly destroyed: boolean;
};

/** Each destination's flush, run once more as the process exits (one listener for them all). */
const flushers = new Set<() => void>();
let flushOnExit = false;

/**
 * Where the process's log lines go: standard output, written as Node writes it (to a pipe or a
 * socket without ever blocking, what the reader has not taken yet waiting in memory; to a file
 * directly). The lines of one turn of the event loop go out in one write, on the next turn
 * (`setImmediate`), and once more at exit: one system call per turn instead of one per line, a
 * sixth of a short request's CPU (bench/access-gate.md). Writing a line never blocks, never waits
 * and never retries, so nothing the reader does can hold the process up, and the drain's timeout
 * stays a hard limit after SIGTERM:
 *
 * - a reader that has gone (EPIPE): the stream fails once, quietly, and every later line is
 *   dropped;
 * - a reader that does not keep up: once `maxUnread` bytes are waiting (written or gathered),
 *   lines are dropped, and the first line that fits again is preceded by one saying how many were;
 * - at exit, the gathered lines are handed to the stream once; what a pipe's reader has not taken
 *   by then is abandoned, nothing is flushed synchronously.
 *
 * Not pino's own destination (sonic-boom, asynchronous): its exit handler flushes synchronously,
 * and that flush (sonic-boom 4.2) sleeps 100 ms and writes again after any failure, EPIPE
 * included, for ever: a server whose reader left while a line was queued never exited, its main
 * thread asleep in the loop and deaf to further signals (issue 15).
 */
export function logDestination(
  out: LogOutput = process.stdout,
  maxUnread = maxUnreadBytes,
): DestinationStream {
  let dropped = 0;
  let gathered = '';
  let scheduled = false;
  // A write to a reader that has gone fails (EPIPE) and destroys the stream; without a listener
  // that would be an uncaught error. The lines are lost either way. One listener per stream,
  // however many loggers write to it (the tests build many).
  if (!quietened.has(out)) {
    quietened.add(out);
    out.on('error', () => {});
  }
  const flush = () => {
    scheduled = false;
    const chunk = gathered;
    gathered = '';
    if (chunk !== '' && !out.destroyed) out.write(chunk);
  };
  flushers.add(flush);
  if (!flushOnExit) {
    flushOnExit = true;
    process.once('exit', () => {
      for (const f of flushers) f();
    });
  }
  return {
    write(line: string) {
      if (out.destroyed) return;
      if (out.writableLength + gathered.length >= maxUnread) {
        dropped += 1;
        return;
      }
      if (dropped > 0) {
        gathered += droppedLine(dropped);
        dropped = 0;
      }
      gathered += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}

/** The line that says how many lines were dropped, in pino's format. */
function droppedLine(dropped: number): string {
  const line = {
    level: 40,
    time: Date.now(),
    pid: process.pid,
    hostname: hostname(),
    dropped,
    msg: 'log lines dropped: standard output was not being read',
  };
  return `${JSON.stringify(line)}\n`;
}

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

// A UUID, or the same 128 bits as 32 hex digits (nginx's $request_id).
const requestIdPattern = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;

/**
 * Fastify's genReqId. An incoming x-request-id is kept only when the connection comes from a
 * trusted proxy (GEM_TRUST_PROXY: a hop count trusts the peer, a list trusts its addresses) and
 * the id is a UUID, so the proxy's log line and GEM's match. A client's own id is never taken: it
 * could label other requests' log lines, or make one id stand for many requests.
 */
export function requestIdGenerator(trustProxy: false | number | string[]): (req: IncomingMessage) => string {
  const trustsPeer: (address: string) => boolean =
    trustProxy === false
      ? () => false
      : typeof trustProxy === 'number'
        ? () => trustProxy > 0
        : (
            (trust) => (address: string) =>
              trust(address, 0)
          )(proxyAddr.compile(trustProxy));
  return (req) => {
    const incoming = req.headers['x-request-id'];
    const peer = req.socket.remoteAddress;
    return typeof incoming === 'string' &&
      requestIdPattern.test(incoming) &&
      peer !== undefined &&
      trustsPeer(peer)
      ? incoming
      : randomUUID();
  };
}

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/**
 * A request's logger (`req.log`, `reply.log`) that becomes a pino child of the app's logger
 * (with the request id) only when something logs through it. Most requests never do: their one
 * line goes through RequestLogController. A pino child made for every request, whether it logs
 * or not, was 4–6% of a short API answer's CPU (its bindings serialized and run through
 * redaction each time; bench/access-gate.md). What a line says is unchanged.
 */
class RequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Record<string, unknown>;
  readonly #options: NonNullable<ChildOptions>;
  #logger: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Record<string, unknown>, options: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options ?? {};
  }

  #child(): FastifyBaseLogger {
    return (this.#logger ??= this.#parent.child(this.#bindings, this.#options));
  }

  #log(method: LogMethod, args: unknown[]): void {
    const logger = this.#child();
    (logger[method] as (...line: unknown[]) => void).apply(logger, args);
  }

  get level(): string {
    return this.#logger?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#child().level = level;
  }

  fatal(...args: unknown[]) {
    this.#log('fatal', args);
  }
  error(...args: unknown[]) {
    this.#log('error', args);
  }
  warn(...args: unknown[]) {
    this.#log('warn', args);
  }
  info(...args: unknown[]) {
    this.#log('info', args);
  }
  debug(...args: unknown[]) {
    this.#log('debug', args);
  }
  trace(...args: unknown[]) {
    this.#log('trace', args);
  }
  silent() {}

  child(bindings: Record<string, unknown>, options?: ChildOptions): FastifyBaseLogger {
    return this.#child().child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: each request's logger (RequestLogger). */
export const requestLoggerFactory = (
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: ChildOptions,
): FastifyBaseLogger => new RequestLogger(logger, bindings, options);

/** The parts of a pino logger the request line is made from (pino.symbols: pino's own API). */
type PinoLogger = FastifyBaseLogger & {
  isLevelEnabled(level: string): boolean;
  [pinoSymbols.streamSym]: { write(line: string): void };
  [pinoSymbols.lsCacheSym]: Record<number, string>;
  [pinoSymbols.timeSym]: () => string;
  [pinoSymbols.chindingsSym]: string;
};
const isPino = (logger: FastifyBaseLogger): logger is PinoLogger =>
  pinoSymbols.streamSym in logger && typeof (logger as Partial<PinoLogger>).isLevelEnabled === 'function';

// A route may log at its own level (Fastify's logLevel route option).
const quieterThanInfo = new Set(['warn', 'error', 'fatal', 'silent']);

/**
 * Fastify's request log lines, one per request instead of two: nothing when a request comes
 * in, and when its answer has gone "request completed" (or "request errored") with the request
 * id (reqId), method, path without the query string, status and duration in ms.
 *
 * The "request completed" line is the one line every request writes, so it is put together
 * here, from the parts pino would use (its level and time fragments and the process's bindings,
 * `pino.symbols`), and handed to the logger's stream: the same text as `logger.info(…)` writes
 * (a test compares them), without pino walking the fields, looking for serializers and running
 * the redaction paths on fields that can hold no secret. That was 4–5% of a short API answer's
 * CPU (bench/access-gate.md). An error line, or a route that logs at a level above info, goes
 * through the request's own logger, redaction and all.
 */
export class RequestLogController extends LogController {
  readonly #lines: PinoLogger | undefined;
  readonly #completed: ((req: FastifyRequest, reply: FastifyReply) => void) | undefined;

  /**
   * `logger`: the logger the app was given (without it, every line uses the request's logger).
   * `completed`: called for every request that ends, before its line is written (the metrics
   * count it there: Fastify calls this for every request anyway, where an onResponse hook would
   * add its hook runner to each one, 1–2 µs).
   */
  constructor(
    logger?: FastifyBaseLogger,
    { completed }: { completed?: (req: FastifyRequest, reply: FastifyReply) => void } = {},
  ) {
    super();
    this.#lines = logger && isPino(logger) ? logger : undefined;
    this.#completed = completed;
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply) {
    this.#completed?.(req, reply);
    const query = req.url.indexOf('?');
    const path = query < 0 ? req.url : req.url.slice(0, query);
    const statusCode = reply.statusCode;
    const responseTime = Math.round(reply.elapsedTime * 100) / 100;
    const lines = this.#lines;
    if (error) {
      reply.log.error({ method: req.method, path, statusCode, responseTime, err: error }, 'request errored');
    } else if (lines && !quieterThanInfo.has(reply.log.level)) {
      if (!lines.isLevelEnabled('info')) return;
      lines[pinoSymbols.streamSym].write(
        `${lines[pinoSymbols.lsCacheSym][30]}${lines[pinoSymbols.timeSym]()}${lines[pinoSymbols.chindingsSym]},"reqId":${JSON.stringify(req.id)},"method":${JSON.stringify(req.method)},"path":${JSON.stringify(path)},"statusCode":${statusCode},"responseTime":${responseTime},"msg":"request completed"}\n`,
      );
    } else {
      reply.log.info({ method: req.method, path, statusCode, responseTime }, 'request completed');
    }
  }
}
