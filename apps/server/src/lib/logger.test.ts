import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket, type AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { JSONParseError, NoObjectGeneratedError, TypeValidationError } from 'ai';
import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database';
import { buildTestApp } from '../../test/test-app';
import { testConfig } from '../../test/test-config';
import type { Database } from '../db/client';
import { localAccounts, users } from '../db/schema/index';
import { logDestination, loggerOptions } from './logger';

/** What the app's logger writes when a query fails: the kind of failure, never its values. */

const EMAIL = 'ann.secret@example.com';
const PASSWORD_HASH = 'scrypt$hash-that-must-not-be-logged';
const TOKEN = 'refresh-token-value-that-must-not-be-logged';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(localAccounts).values({ email: EMAIL, passwordHash: PASSWORD_HASH });
});

afterAll(async () => {
  await database?.close();
});

function memoryLogger() {
  const lines: string[] = [];
  const options = loggerOptions(testConfig({ log: { level: 'info', pretty: false } })) as Exclude<
    FastifyServerOptions['logger'],
    boolean | undefined
  >;
  return {
    options,
    stream: { write: (line: string) => void lines.push(line) },
    output: () => lines.join(''),
    /** The lines, parsed. */
    entries: () =>
      lines
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const expectNoValues = (output: string) => {
  for (const value of [EMAIL, 'ann.secret', PASSWORD_HASH, TOKEN]) expect(output).not.toContain(value);
};

/** The app as server.ts builds it, logging into `log` at info level. */
const appLoggingTo = (log: ReturnType<typeof memoryLogger>) =>
  buildTestApp({
    config: testConfig({ log: { level: 'info', pretty: false } }),
    database,
    logger: pino(log.options, log.stream),
  });

describe('logged database errors', () => {
  it('keep the failure and its code but not the values, through the error handler', async () => {
    const log = memoryLogger();
    const app = await appLoggingTo(log);
    // Routes that exist only in this test, behind the app's one error handler: no route of
    // GEM's hands the database a value it refuses (parameters are checked before any query).
    // A unique violation: drizzle's message and PostgreSQL's detail would name the e-mail.
    app.post('/api/test/duplicate', async () =>
      database.db.insert(localAccounts).values({ email: EMAIL.toUpperCase(), passwordHash: PASSWORD_HASH }),
    );
    // A refused value: PostgreSQL's message and its "where" would quote the token.
    app.get('/api/test/by-id', async () => database.db.select().from(users).where(eq(users.id, TOKEN)));
    try {
      expect((await app.inject({ method: 'POST', url: '/api/test/duplicate' })).statusCode).toBe(500);
      expect((await app.inject({ method: 'GET', url: '/api/test/by-id' })).statusCode).toBe(500);
    } finally {
      await app.close();
    }

    const output = log.output();
    expectNoValues(output);
    expectNoValues(output.toLowerCase());
    const [duplicate, byId] = log
      .entries()
      .filter((entry) => entry.msg === 'request failed')
      .map((entry) => (entry.err ?? {}) as Record<string, unknown>);
    expect(duplicate).toMatchObject({
      type: 'DrizzleQueryError',
      cause: { code: '23505', constraint: 'local_accounts_email_key', table: 'local_accounts' },
    });
    expect(duplicate?.message).toMatch(
      /^Failed query: insert into "local_accounts" .*\$1.*: duplicate key value/s,
    );
    expect(duplicate?.message).toContain('local_accounts_email_key');
    expect(duplicate?.stack).toContain('caused by: ');
    expect(byId).toMatchObject({ type: 'DrizzleQueryError', cause: { code: '22P02' } });
    expect(byId?.message).toContain('invalid input syntax for type uuid: "[redacted]"');
    for (const err of [duplicate, byId, duplicate?.cause, byId?.cause]) {
      for (const field of ['params', 'query', 'detail', 'where']) expect(err).not.toHaveProperty(field);
    }
  });

  it('keep the driver error’s code and constraint, without its detail, query or parameters', async () => {
    const log = memoryLogger();
    const logger = pino(log.options, log.stream);
    const err = await database.db
      .insert(localAccounts)
      .values({ email: EMAIL, passwordHash: PASSWORD_HASH })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { cause: Record<string, unknown> },
      );
    expect(err?.cause).toMatchObject({ code: '23505' });
    logger.error({ err }, 'could not add the account');
    // Logged as the error itself, the driver's error keeps its kind but not its values.
    logger.error({ err: err?.cause }, 'could not add the account');

    const output = log.output();
    expectNoValues(output);
    const [wrapped, driver] = output
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { err: Record<string, unknown> }).err);
    expect(wrapped?.message).toContain('duplicate key value violates unique constraint');
    expect(driver).toMatchObject({ code: '23505', constraint: 'local_accounts_email_key' });
    for (const field of ['detail', 'params', 'query', 'queryOptions', 'where'])
      expect(driver).not.toHaveProperty(field);
  });

  it('drop parameters and request bodies at any depth, also in causes that loop', () => {
    const log = memoryLogger();
    const logger = pino(log.options, log.stream);
    const cause = new Error('the provider answered 400');
    const err = Object.assign(new Error('generation failed', { cause }), {
      statusCode: 400,
      requestBodyValues: { messages: [{ content: TOKEN }] },
      responseBody: `{"echo":"${TOKEN}"}`,
      data: { nested: { parameters: [TOKEN], kept: 'shape' } },
    });
    (cause as Error & { cause?: unknown }).cause = err;
    logger.error({ err }, 'generation failed');

    const output = log.output();
    expectNoValues(output);
    const entry = JSON.parse(output) as { err: Record<string, unknown> };
    expect(entry.err).toMatchObject({ statusCode: 400, data: { nested: { kept: 'shape' } } });
    expect(entry.err.message).toMatch(/^generation failed: the provider answered 400/);
    expect(entry.err.stack).toContain('causes have become circular');
  });

  it("keep the model's answer out of the AI SDK's errors, in their fields and their messages", () => {
    const log = memoryLogger();
    const logger = pino(log.options, log.stream);
    const answer = { subIndustries: 'odpowiedź modelu, której nie wolno logować' };
    const text = JSON.stringify(answer);
    const invalid = new TypeValidationError({ value: answer, cause: new Error('expected array') });
    const parse = new JSONParseError({
      text: `${text} i niedokończony`,
      cause: new Error('Unexpected token'),
    });
    const noObject = new NoObjectGeneratedError({
      message: 'No object generated: response did not match schema.',
      cause: invalid,
      text,
      response: {
        id: 'r1',
        timestamp: new Date(),
        modelId: 'm',
        messages: [{ role: 'assistant', content: text }],
      } as never,
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } as never,
      finishReason: 'stop',
    });
    logger.error({ err: new Error('structured answer failed', { cause: noObject }) }, 'failed');
    logger.error({ err: parse }, 'failed');

    const output = log.output();
    expect(output).not.toContain('odpowiedź modelu');
    expect(output).not.toContain('niedokończony');
    expect(output).toContain('Type validation failed: Value: [redacted]');
    expect(output).toContain('JSON parsing failed: Text: [redacted]');
    // What went wrong is still there.
    expect(output).toContain('expected array');
    expect(output).toContain('Unexpected token');
  });

  it('log a DOMException (a timeout, an abort) with its name, not a TypeError from its getters', () => {
    const log = memoryLogger();
    const logger = pino(log.options, log.stream);
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    logger.error({ err: new Error('the model did not answer in time', { cause: timeout }) }, 'failed');
    logger.error({ err: timeout }, 'failed');

    const [wrapped, alone] = log
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { err: Record<string, unknown> });
    expect(wrapped!.err.message).toBe(
      'the model did not answer in time: The operation was aborted due to timeout',
    );
    expect(wrapped!.err.cause).toMatchObject({ type: 'DOMException', name: 'TimeoutError', code: 23 });
    expect(alone!.err).toMatchObject({ type: 'DOMException', name: 'TimeoutError', code: 23 });
    expect(alone!.err.message).toBe('The operation was aborted due to timeout');
    expect(alone!.err.stack).toContain('TimeoutError: The operation was aborted due to timeout');
  });
});

describe('request logs', () => {
  const REQ_ONE = '11111111-2222-4333-8444-555555555555';
  const REQ_TWO = 'aaaaaaaabbbbccccddddeeeeeeeeeeee';

  it('are one line per request: request id, method, path without the query, status, duration', async () => {
    const log = memoryLogger();
    const logger = pino(log.options, log.stream);
    // Behind one proxy, whose request ids GEM keeps (a UUID, or nginx's 32 hex digits).
    const config = testConfig({ log: { level: 'info', pretty: false }, trustProxy: 1 });
    const app = await buildTestApp({ config, database, logger });
    try {
      const ok = await app.inject({
        method: 'GET',
        url: '/api/identity/auth-config?code=secret-code',
        headers: { 'x-request-id': REQ_ONE },
      });
      expect(ok.statusCode).toBe(200);
      const refused = await app.inject({
        method: 'GET',
        url: '/api/markets',
        headers: { 'x-request-id': REQ_TWO },
      });
      expect(refused.statusCode).toBe(401);
    } finally {
      await app.close();
    }

    const entries = log.entries();
    const of = (id: string) => entries.filter((e) => e.reqId === id);
    expect(of(REQ_ONE)).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        method: 'GET',
        path: '/api/identity/auth-config',
        statusCode: 200,
        responseTime: expect.any(Number) as unknown,
      }),
    ]);
    expect(log.output()).not.toContain('secret-code');
    // Put together by RequestLogController: the very text pino writes for the same fields.
    const line = log
      .output()
      .split('\n')
      .find((l) => l.includes(`"reqId":"${REQ_ONE}"`));
    const viaPino = memoryLogger();
    const { responseTime } = of(REQ_ONE)[0]!;
    pino(viaPino.options, viaPino.stream).info(
      { reqId: REQ_ONE, method: 'GET', path: '/api/identity/auth-config', statusCode: 200, responseTime },
      'request completed',
    );
    const timeless = (text = '') => text.trim().replace(/"time":\d+/, '"time":0');
    expect(timeless(line)).toBe(timeless(viaPino.output()));
    // A refused request: the reason, then the one request line.
    expect(of(REQ_TWO).map((e) => e.msg)).toEqual(['access token rejected', 'request completed']);
    expect(of(REQ_TWO)[1]).toMatchObject({ path: '/api/markets', statusCode: 401 });
    expect(entries.some((e) => e.msg === 'incoming request')).toBe(false);
  });
});

describe("a request's logger", () => {
  it('logs with the request id, at the route’s level, redacting, also through its children', async () => {
    const log = memoryLogger();
    const app = await appLoggingTo(log);
    // Routes that exist only in this test: no route of GEM's has a log level of its own or
    // makes a child of its request's logger yet; one that does must get these lines.
    app.get('/api/test/quiet', { logLevel: 'warn' }, async (req) => {
      req.log.info('not logged at warn');
      req.log.warn({ token: TOKEN }, 'logged at warn');
      return { level: req.log.level };
    });
    app.get('/api/test/module', async (req) => {
      const level = req.log.level;
      req.log.child({ module: 'probe' }).info({ email: EMAIL, n: 2 }, 'from a child');
      return { level };
    });
    let quietId: unknown;
    let moduleId: unknown;
    try {
      const quiet = await app.inject({ url: '/api/test/quiet' });
      expect(quiet.json()).toEqual({ level: 'warn' });
      quietId = quiet.headers['x-request-id'];
      const fromChild = await app.inject({ url: '/api/test/module' });
      expect(fromChild.json()).toEqual({ level: 'info' });
      moduleId = fromChild.headers['x-request-id'];
    } finally {
      await app.close();
    }
    expect(quietId).toEqual(expect.any(String));
    expect(moduleId).toEqual(expect.any(String));
    expect(moduleId).not.toBe(quietId);
    const entries = log.entries();
    const of = (id: unknown) => entries.filter((e) => e.reqId === id);
    // At warn, neither the info line nor the request's own line at info.
    expect(of(quietId)).toEqual([
      expect.objectContaining({ level: 40, token: '[redacted]', msg: 'logged at warn' }),
    ]);
    expect(of(moduleId)).toEqual([
      expect.objectContaining({ level: 30, module: 'probe', email: '[redacted]', n: 2, msg: 'from a child' }),
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        path: '/api/test/module',
        statusCode: 200,
      }),
    ]);
    expect(log.output()).not.toContain('not logged at warn');
    expectNoValues(log.output());
  });
});

/** A stream whose reader takes nothing until `read()`: what it holds is its writableLength. */
function slowReader() {
  const taken: string[] = [];
  const waiting: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, done) {
      taken.push(chunk.toString());
      waiting.push(done);
    },
  });
  const read = async () => {
    while (waiting.length > 0) {
      waiting.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { stream, taken, read };
}

describe('the log destination', () => {
  it('writes the lines of one turn of the event loop at once, on the next turn', async () => {
    const reader = slowReader();
    const destination = logDestination(reader.stream);
    destination.write('line 1\n');
    destination.write('line 2\n');
    expect(reader.taken).toEqual([]);
    await new Promise((r) => setImmediate(r));
    destination.write('line 3\n');
    await reader.read();
    expect(reader.taken).toEqual(['line 1\nline 2\n', 'line 3\n']);
  });

  it('drops lines, rather than waiting, once its reader is behind by the limit, and says how many', async () => {
    const reader = slowReader();
    const destination = logDestination(reader.stream, 20);
    // Lines 1 to 3 are gathered (21 bytes, past the limit of 20), lines 4 and 5 are dropped.
    for (const n of [1, 2, 3, 4, 5]) destination.write(`line ${n}\n`);
    await new Promise((r) => setImmediate(r));
    // Still unread: line 6 is dropped too.
    destination.write('line 6\n');
    await reader.read();
    destination.write('line 7\n');
    await new Promise((r) => setImmediate(r));
    await reader.read();
    expect(reader.taken[0]).toBe('line 1\nline 2\nline 3\n');
    const [count, last] = reader.taken[1]!.split(/(?<=\n)/);
    expect(JSON.parse(count!)).toMatchObject({ level: 40, dropped: 3 });
    expect(last).toBe('line 7\n');
    expect(reader.taken).toHaveLength(2);
  });

  it('hands what it gathered to the stream once more as the process exits', () => {
    const script = [
      "import { logDestination } from './src/lib/logger.ts';",
      'const destination = logDestination();',
      "destination.write('before exit\\n');",
      'process.exit(0);',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
    });
    expect(out).toBe('before exit\n');
  });

  it('drops every line, quietly, once its reader has gone (EPIPE)', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const out = new Socket();
    out.connect((server.address() as AddressInfo).port, '127.0.0.1');
    const [reader] = (await once(server, 'connection')) as [Socket];
    const destination = logDestination(out);
    destination.write('read\n');
    reader.destroy();
    server.close();
    // Writes after the reader has gone fail; the stream is destroyed, nothing is thrown.
    while (!out.destroyed) {
      destination.write('unread\n');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(() => destination.write('after\n')).not.toThrow();
  });
});
