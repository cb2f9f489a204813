import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { symbols as pinoSymbols } from 'pino';

/**
 * A request's log lines: its id (requestIdGenerator), its logger made only when something logs
 * through it (requestLoggerFactory), and the one line per request (RequestLogController).
 */

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
