import { errorResponseSchema } from '@gem/contracts/errors';
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../db/client';
import { clientErrorHandler, DATABASE_UNAVAILABLE_MESSAGE, errorsPlugin } from './errors';

/**
 * The error shape for what Fastify itself refuses (a content type a route does not take) and
 * for what Node's HTTP parser refuses before Fastify sees a request (clientErrorHandler).
 */

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify({ logger: false, clientErrorHandler });
  await app.register(errorsPlugin);
  app.post('/api/thing', async () => ({ ok: true }));
  // A PostgreSQL that is down: nothing listens on port 1, as while a server restarts.
  const down = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'gem', connectionTimeoutMillis: 2_000 });
  app.get('/api/down', async () => drizzle({ client: down }).execute(sql`select 1`));
  app.get('/api/bad-query', async () => {
    throw Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' });
  });
  await app.register(async (form) => {
    form.removeAllContentTypeParsers();
    form.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, new URLSearchParams(String(body))),
    );
    form.post('/oidc/interaction/:uid', async () => 'ok');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app?.close());

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
  });
}

describe('requests Node refuses before Fastify sees them', () => {
  it('answers headers over the size limit with a 431 in the error shape', async () => {
    const res = await raw(`GET /api/thing HTTP/1.1\r\nHost: gem\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json; charset=utf-8/i);
    expect(errorResponseSchema.parse(JSON.parse(res.body))).toEqual({
      error: { code: 'bad_request', message: 'The request headers are too large.' },
    });
  });

  it('answers a malformed request with a 400 in the error shape', async () => {
    const res = await raw('NOT A REQUEST\r\n\r\n');
    expect(res.status).toBe(400);
    expect(errorResponseSchema.parse(JSON.parse(res.body)).error).toEqual({
      code: 'bad_request',
      message: 'The request is not valid.',
    });
  });
});

describe('a content type the route does not take (415)', () => {
  it('tells an API client to send JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/thing',
      headers: { 'content-type': 'application/xml' },
      payload: '<x/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      error: {
        code: 'unsupported_media_type',
        message: 'This content type is not supported here. Send JSON.',
      },
    });
  });

  it('tells a sign-in form post what the form is sent as', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/oidc/interaction/abc',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(415);
    const { message } = res.json<{ error: { message: string } }>().error;
    expect(message).toContain('application/x-www-form-urlencoded');
    expect(message).not.toContain('JSON');
  });
});

describe('a database that cannot be reached', () => {
  it('answers 503 with a wait, in words, not a 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/down' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(errorResponseSchema.parse(res.json()).error).toMatchObject({
      code: 'service_unavailable',
      message: DATABASE_UNAVAILABLE_MESSAGE,
    });
  });

  it('still answers a failed query as an error of GEM’s own (500)', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/bad-query' });
    expect(res.statusCode).toBe(500);
  });

  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      true,
    ],
    [
      'a server shutting down (57P01)',
      Object.assign(new Error('terminating connection'), { code: '57P01' }),
      true,
    ],
    [
      'a connection exception (08006)',
      Object.assign(new Error('connection failure'), { code: '08006' }),
      true,
    ],
    ['an ended connection', new Error('Connection terminated unexpectedly'), true],
    ['wrapped in a cause', new Error('Failed query', { cause: new Error('Connection terminated') }), true],
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' }), false],
    ['not an error', 'ECONNREFUSED', false],
  ])('tells %s', (_, err, unavailable) => {
    expect(isDatabaseUnavailable(err)).toBe(unavailable);
  });
});
