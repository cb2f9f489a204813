// @vitest-environment node
/// <reference types="node" />
// Runs against the local API server of the web tests, so the client's actual fetch, headers
// and parsing are what is tested.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { json, serveApi } from '@/testing/api-server';

import { ApiError, createApiClient, NetworkError, parseRetryAfter } from './api-client';

const server = serveApi();

describe('api client', () => {
  it('sends and receives JSON', async () => {
    server.on('POST', '/api/echo', (req, body, res) =>
      json(res, 200, {
        received: JSON.parse(body),
        contentType: req.headers['content-type'],
        accept: req.headers.accept,
        authorization: req.headers.authorization ?? null,
      }),
    );
    const api = createApiClient({ baseUrl: server.origin() });
    await expect(api.post('/api/echo', { task: 'Write' })).resolves.toEqual({
      received: { task: 'Write' },
      contentType: 'application/json',
      accept: 'application/json',
      authorization: null,
    });
  });

  it('adds the bearer token from the token getter', async () => {
    server.on('GET', '/api/me', (req, _body, res) =>
      json(res, 200, { authorization: req.headers.authorization }),
    );
    const api = createApiClient({ baseUrl: server.origin(), getAccessToken: async () => 'token-123' });
    await expect(api.get('/api/me')).resolves.toEqual({ authorization: 'Bearer token-123' });
  });

  it('downloads a file as a blob with the bearer token, and an error answer as an ApiError', async () => {
    server.on('GET', '/api/export.csv', (req, _body, res) => {
      res
        .writeHead(200, { 'content-type': 'text/csv; charset=utf-8' })
        .end(`auth,accept\r\n${req.headers.authorization},${req.headers.accept}\r\n`);
    });
    server.on('GET', '/api/missing.csv', (_req, _body, res) =>
      json(res, 404, { error: { code: 'not_found', message: 'No such report.' } }),
    );
    const api = createApiClient({ baseUrl: server.origin(), getAccessToken: async () => 'token-123' });
    const blob = await api.download('/api/export.csv', { accept: 'text/csv' });
    expect(blob.type).toMatch(/^text\/csv/);
    expect(await blob.text()).toBe('auth,accept\r\nBearer token-123,text/csv\r\n');
    await expect(api.download('/api/missing.csv')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'No such report.',
    });
  });

  it('checks a response against a schema when given one', async () => {
    server.on('GET', '/api/count', (_req, _body, res) => json(res, 200, { count: 'three' }));
    const api = createApiClient({ baseUrl: server.origin() });
    await expect(api.get('/api/count', { schema: z.object({ count: z.number() }) })).rejects.toThrow(
      z.ZodError,
    );
  });

  it('turns an error-shaped response into an ApiError with status, code, message and issues', async () => {
    server.on('POST', '/api/article', (_req, _body, res) =>
      json(res, 400, {
        error: {
          code: 'validation_failed',
          message: 'The request has invalid fields.',
          issues: [{ path: 'body.task', message: 'Required' }],
          requestId: 'req-1',
        },
      }),
    );
    const api = createApiClient({ baseUrl: server.origin() });
    const error = await api.post('/api/article', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'The request has invalid fields.',
      issues: [{ path: 'body.task', message: 'Required' }],
      requestId: 'req-1',
    });
  });

  it('still gives an ApiError when the error body is not JSON', async () => {
    server.on('GET', '/api/proxy', (_req, _body, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'),
    );
    const api = createApiClient({ baseUrl: server.origin() });
    const error = await api.get('/api/proxy').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'internal_error', issues: [] });
  });

  it('turns a network failure into a NetworkError that says what happened', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const api = createApiClient({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await api.get('/api/health').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/Could not reach the GEM server/);
    expect((error as NetworkError).cause).toBeInstanceOf(TypeError);
  });

  it('lets a cancelled request fail as an abort, not as a network error', async () => {
    server.on('GET', '/api/slow', () => {
      /* never answers */
    });
    const api = createApiClient({ baseUrl: server.origin() });
    const controller = new AbortController();
    const pending = api.get('/api/slow', { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(NetworkError);
    expect((error as Error).name).toBe('AbortError');
  });
  it('on a 401 retries once with a fresh token (spec §7)', async () => {
    const seen: (string | undefined)[] = [];
    server.on('GET', '/api/needs-fresh', (req, _body, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization === 'Bearer fresh') json(res, 200, { ok: true });
      else json(res, 401, { error: { code: 'unauthorized', message: 'Token expired.' } });
    });
    const requests: { forceRefresh?: boolean }[] = [];
    const api = createApiClient({
      baseUrl: server.origin(),
      getAccessToken: async (options) => {
        requests.push(options ?? {});
        return options?.forceRefresh ? 'fresh' : 'stale';
      },
    });
    await expect(api.get('/api/needs-fresh')).resolves.toEqual({ ok: true });
    expect(seen).toEqual(['Bearer stale', 'Bearer fresh']);
    expect(requests).toEqual([{}, { forceRefresh: true }]);
  });

  it('ends the session when a 401 cannot be cured with a fresh token', async () => {
    server.on('GET', '/api/always-401', (_req, _body, res) =>
      json(res, 401, { error: { code: 'unauthorized', message: 'Sign in again.' } }),
    );
    let lost = 0;
    const api = createApiClient({
      baseUrl: server.origin(),
      getAccessToken: async (options) => (options?.forceRefresh ? null : 'stale'),
      onAuthenticationLost: () => {
        lost += 1;
      },
    });
    const error = await api.get('/api/always-401').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(lost).toBe(1);
  });

  it('does not retry a 401 for a request sent without a token', async () => {
    let calls = 0;
    server.on('GET', '/api/anon-401', (_req, _body, res) => {
      calls += 1;
      json(res, 401, { error: { code: 'unauthorized', message: 'Sign in.' } });
    });
    const api = createApiClient({ baseUrl: server.origin(), getAccessToken: async () => null });
    await expect(api.get('/api/anon-401')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
  });

  it('streams: hands back the body as it arrives, with the bearer token and an NDJSON Accept', async () => {
    let release = () => {};
    server.on('POST', '/api/stream', (req, body, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(
        `${JSON.stringify({ got: JSON.parse(body), accept: req.headers.accept, auth: req.headers.authorization })}\n`,
      );
      release = () => res.end('{"done":true}\n');
    });
    const api = createApiClient({ baseUrl: server.origin(), getAccessToken: async () => 'token-9' });
    const body = await api.stream('/api/stream', { body: { content: 'x' } });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(JSON.parse(decoder.decode(first.value))).toEqual({
      got: { content: 'x' },
      accept: 'application/x-ndjson',
      auth: 'Bearer token-9',
    });
    release();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
    expect(rest).toBe('{"done":true}\n');
  });

  it('streams: retries a 401 once with a fresh token, like every other call', async () => {
    const seen: (string | undefined)[] = [];
    server.on('POST', '/api/stream-401', (req, _body, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization === 'Bearer fresh') res.writeHead(200).end('{}\n');
      else json(res, 401, { error: { code: 'unauthorized', message: 'Expired.' } });
    });
    const api = createApiClient({
      baseUrl: server.origin(),
      getAccessToken: async (options) => (options?.forceRefresh ? 'fresh' : 'stale'),
    });
    const body = await api.stream('/api/stream-401', { body: {} });
    expect(await new Response(body).text()).toBe('{}\n');
    expect(seen).toEqual(['Bearer stale', 'Bearer fresh']);
  });

  it('streams: an error status is an ApiError with the Retry-After it carried', async () => {
    server.on('POST', '/api/stream-429', (_req, _body, res) =>
      json(res, 429, { error: { code: 'too_many_requests', message: 'Slow down.' } }),
    );
    // json() sets no Retry-After; this one does.
    server.on('POST', '/api/stream-429b', (_req, _body, res) =>
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '42' })
        .end(JSON.stringify({ error: { code: 'too_many_requests', message: 'Slow down.' } })),
    );
    const api = createApiClient({ baseUrl: server.origin() });
    await expect(api.stream('/api/stream-429', { body: {} })).rejects.toMatchObject({
      status: 429,
      code: 'too_many_requests',
      retryAfterSeconds: undefined,
    });
    await expect(api.stream('/api/stream-429b', { body: {} })).rejects.toMatchObject({
      retryAfterSeconds: 42,
    });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and ignores nonsense', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
