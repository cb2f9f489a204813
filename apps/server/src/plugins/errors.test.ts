import { errorResponseSchema } from '@gem/contracts/errors';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/test-app';
import { testConfig } from '../../test/test-config';
import { createTestDatabase } from '../../test/test-database';
import type { App } from '../app';
import { isDatabaseUnavailable, type Database } from '../db/client';
import { DATABASE_UNAVAILABLE_MESSAGE } from './errors';

/**
 * The error shape for what Fastify itself refuses (a content type a route does not take) and for
 * a database that cannot be reached, on the app as server.ts builds it. What Node's HTTP parser
 * refuses (431, a malformed request) is tested on a listening app in app.test.ts.
 */

let database: Database;
let app: App;
let down: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildTestApp({ config: testConfig(), database });
  // Routes that exist only in this test, behind the app's one error handler.
  app.post('/api/test/thing', async () => ({ ok: true }));
  // A PostgreSQL that is down: nothing listens on port 1, as while a server restarts.
  down = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'gem', connectionTimeoutMillis: 2_000 });
  app.get('/api/test/down', async () => drizzle({ client: down }).execute(sql`select 1`));
  app.get('/api/test/bad-query', async () => {
    throw Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' });
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await down.end();
  await database.close();
});

describe('a content type the route does not take (415)', () => {
  it('tells an API client to send JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/thing',
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
    const res = await app.inject({ method: 'GET', url: '/api/test/down' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(errorResponseSchema.parse(res.json()).error).toMatchObject({
      code: 'service_unavailable',
      message: DATABASE_UNAVAILABLE_MESSAGE,
    });
  });

  it('still answers a failed query as an error of GEM’s own (500)', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/bad-query' });
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
