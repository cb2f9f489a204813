import { appendFileSync, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino, type DestinationStream } from 'pino';
import { inject } from 'vitest';
import type { Config } from '../src/config';
import { createLogger, loggerOptions } from '../src/lib/logger';
import { MIN_SECRET_LENGTH, MIN_TEXT_LENGTH, type KnownSecret, type SecretKind } from './log-scan';

/**
 * The integration suite's server logs, kept for the scan at the end of the run (global-setup.ts,
 * log-scan.ts). A test app whose config keeps logs silent (testConfig's default) logs instead at
 * trace level, through the server's own logger options (redaction, serializers), into
 * `<capture folder>/<pid>.log`; what the tests send that must never be logged is written beside
 * it, to `<pid>.secrets`. A test that chose a log level of its own keeps its logger.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where test apps write their logs for the scan; '' when nothing is captured. */
    logCaptureDir: string;
  }
}

const captureDir = (): string => {
  try {
    return inject('logCaptureDir') ?? '';
  } catch {
    return '';
  }
};

let logFd: number | undefined;

/** One file per test process, written synchronously: nothing is lost when the process ends. */
function captureDestination(dir: string): DestinationStream {
  if (logFd === undefined) {
    mkdirSync(dir, { recursive: true });
    logFd = openSync(path.join(dir, `${process.pid}.log`), 'a');
    process.once('exit', () => closeSync(logFd!));
  }
  const fd = logFd;
  return { write: (line: string) => void writeSync(fd, line) };
}

/** The logger of a test app: the capture's when the test left logs silent, else the server's. */
export function testLogger(config: Pick<Config, 'log'>): FastifyBaseLogger {
  const dir = captureDir();
  if (!dir || config.log.level !== 'silent') return createLogger(config);
  const options = loggerOptions({ log: { level: 'trace', pretty: false } });
  return pino(options, captureDestination(dir));
}

const remembered = new Set<string>();

/** A value that must never appear in the server logs. */
export function rememberSecret(kind: SecretKind, value: string | undefined | null): void {
  const dir = captureDir();
  if (!dir || !value || value.length < MIN_SECRET_LENGTH || remembered.has(value)) return;
  remembered.add(value);
  mkdirSync(dir, { recursive: true });
  appendFileSync(
    path.join(dir, `${process.pid}.secrets`),
    `${JSON.stringify({ kind, value } satisfies KnownSecret)}\n`,
  );
}

const secretField = /password|token|secret|verifier|^code$/i;
const emailField = /e-?mail/i;
/** An id GEM made (a session's, a brief's): no one's words, and request paths name it. */
const uuidShape = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;

/** Remembers the secrets in a request body: fields named like them, and long texts (the user's words). */
function rememberBody(value: unknown, key = ''): void {
  if (typeof value === 'string') {
    if (secretField.test(key))
      rememberSecret(key.toLowerCase().includes('password') ? 'password' : 'token', value);
    else if (emailField.test(key)) rememberSecret('email', value);
    else if (value.length >= MIN_TEXT_LENGTH && !/^https?:\/\/\S+$/.test(value) && !uuidShape.test(value))
      rememberSecret('text', value);
  } else if (Array.isArray(value)) {
    for (const item of value) rememberBody(item, key);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) rememberBody(v, k);
  }
}

/**
 * Test-only hooks on a test app: every request's credentials and body texts are remembered as
 * secrets, and the app's log says it was built (the scan counts them).
 */
export function watchTestApp(app: FastifyInstance): void {
  if (!captureDir()) return;
  app.log.info('test app built');
  app.addHook('onRequest', (req, _reply, done) => {
    const { authorization } = req.headers;
    // A JWT is found by its shape; the other values are whatever a test put there.
    if (authorization) rememberSecret('token', authorization.replace(/^bearer\s+/i, ''));
    done();
  });
  app.addHook('preHandler', (req, _reply, done) => {
    if (req.body !== undefined) rememberBody(req.body);
    done();
  });
}

/** Log lines a server process the test started wrote (its standard output), for the scan too. */
export function captureProcessLog(stdout: string): void {
  const dir = captureDir();
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(
    path.join(dir, `${process.pid}-processes.log`),
    stdout.endsWith('\n') ? stdout : `${stdout}\n`,
  );
}
