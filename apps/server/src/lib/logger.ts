import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { pino, type DestinationStream, type LoggerOptions } from 'pino';
import type { Config } from '../config';
import { serializeError } from './log-errors';

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
