import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { errorResponseSchema } from '@gem/contracts/errors';
import { healthResponseSchema, readyResponseSchema } from '@gem/contracts/health';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferred } from '../test/deferred';
import { createTestDatabase } from '../test/test-database';
import type { App } from './app';
import { buildTestApp } from '../test/test-app';
import { testConfig } from '../test/test-config';
import type { Database } from './db/client';

let database: Database;
let app: App;
let webDistDir: string;
const bigAsset = `export const words = ${JSON.stringify(Array.from({ length: 800 }, (_, i) => `word${i}`))};`;

beforeAll(async () => {
  webDistDir = mkdtempSync(path.join(tmpdir(), 'gem-web-dist-'));
  mkdirSync(path.join(webDistDir, 'assets'));
  writeFileSync(
    path.join(webDistDir, 'index.html'),
    '<!doctype html><title>GEM</title><div id="root"></div>',
  );
  writeFileSync(path.join(webDistDir, 'assets', 'index-abc123.js'), 'console.log("gem")');
  // A built asset with the copies the build writes beside it (apps/web/scripts/precompress.mjs).
  const big = path.join(webDistDir, 'assets', 'app-def456.js');
  writeFileSync(big, bigAsset);
  writeFileSync(`${big}.br`, brotliCompressSync(bigAsset));
  // Level 1: bytes that on-the-fly compression (level 6) would not make, so the test sees which.
  writeFileSync(`${big}.gz`, gzipSync(bigAsset, { level: 1 }));
  database = await createTestDatabase();
  app = await buildTestApp({ config: testConfig({ webDistDir, bodyLimitBytes: 2048 }), database });
  // Routes that exist only in this test, to drive the shared error handler.
  app.post(
    '/api/test/echo',
    { schema: { body: z.object({ task: z.string().min(1), count: z.number().int().max(10) }) } },
    async (req) => req.body,
  );
  app.get('/api/test/crash', async () => {
    throw new Error('connection string postgres://secret@db leaked');
  });
  // A library's client error: its status stands, its own words (which may name internals) do not.
  app.get('/api/test/library-refusal', async () => {
    throw Object.assign(new Error('lib: column "secret_column" refused value for tenant 42'), {
      statusCode: 409,
      code: 'LIB_CONFLICT',
    });
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

describe('health', () => {
  it('GET /api/health says the process is alive', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(healthResponseSchema.parse(res.json()).status).toBe('ok');
  });

  it('GET /api/ready checks the database', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(readyResponseSchema.parse(res.json()).database.kind).toBe(database.kind);
  });

  it('GET /api/ready answers 503 in the error shape when the database is down', async () => {
    const broken: Database = { ...database, ping: () => Promise.reject(new Error('ECONNREFUSED 10.0.0.5')) };
    const other = await buildTestApp({ config: testConfig({ webDistDir }), database: broken });
    try {
      const res = await other.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      const body = errorResponseSchema.parse(res.json());
      expect(body.error.code).toBe('service_unavailable');
      expect(res.body).not.toContain('ECONNREFUSED');
    } finally {
      await other.close();
    }
  });
});

describe('security headers', () => {
  it('sends a strict CSP, HSTS, nosniff and a referrer policy', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives['script-src']).toBe("'self'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['base-uri']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('upgrades insecure requests in production only', async () => {
    const base = testConfig();
    const prod = await buildTestApp({
      config: testConfig({ webDistDir, env: 'production', auth: { ...base.auth, embeddedExplicit: true } }),
      database,
    });
    try {
      const res = await prod.inject({ method: 'GET', url: '/' });
      expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await prod.close();
    }
  });

  it('will not mount the embedded identity provider in production unless asked to', async () => {
    await expect(
      buildTestApp({ config: testConfig({ webDistDir, env: 'production' }), database }),
    ).rejects.toThrow(/GEM_EMBEDDED_IDP=true/);
  });

  it('marks API answers, errors included, as not cacheable', async () => {
    for (const url of ['/api/health', '/api/nope', '/api/test/crash']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it("gives API answers the API set (OWASP's REST cheat sheet), not the page policy", async () => {
    for (const url of ['/api/health', '/api/nope', '/api/test/crash']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['strict-transport-security'], url).toMatch(/max-age=\d+/);
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['referrer-policy'], url).toBeUndefined();
    }
    // Pages keep the page policy, and are not no-store.
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['cache-control']).not.toBe('no-store');
  });
});

describe('errors', () => {
  it('answers an unknown /api path with 404 in the error shape', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/does-not-exist?x=1' });
    expect(res.statusCode).toBe(404);
    const body = errorResponseSchema.parse(res.json());
    expect(body.error.code).toBe('not_found');
    expect(body.error.requestId).toBe(res.headers['x-request-id']);
  });

  it('answers POST to an unknown path with 404 JSON, not the app shell', async () => {
    const res = await app.inject({ method: 'POST', url: '/tools', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(errorResponseSchema.parse(res.json()).error.code).toBe('not_found');
  });

  it('lists every invalid field in a 400', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { task: '', count: 11 } });
    expect(res.statusCode).toBe(400);
    const body = errorResponseSchema.parse(res.json());
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.issues?.map((i) => i.path).sort()).toEqual(['body.count', 'body.task']);
  });

  it('rejects a body that is not JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"task":',
    });
    expect(res.statusCode).toBe(400);
    expect(errorResponseSchema.parse(res.json()).error.message).toBe('The request body is not valid JSON.');
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { task: 'x'.repeat(4096), count: 1 },
    });
    expect(res.statusCode).toBe(413);
    expect(errorResponseSchema.parse(res.json()).error.code).toBe('payload_too_large');
  });

  it('never shows internals in a 5xx', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/crash' });
    expect(res.statusCode).toBe(500);
    const body = errorResponseSchema.parse(res.json());
    expect(body.error.code).toBe('internal_error');
    expect(res.body).not.toMatch(/postgres|secret|stack|Error:/);
  });

  it("does not pass a library's 4xx message on as is", async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/library-refusal' });
    expect(res.statusCode).toBe(409);
    expect(errorResponseSchema.parse(res.json()).error).toMatchObject({
      code: 'conflict',
      message: 'The request could not be handled.',
    });
    expect(res.body).not.toMatch(/secret|tenant|LIB_/);
  });
});

describe('request id', () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const proxyId = '3e4f6c1a-9b2d-4c8e-8f1a-0b2c3d4e5f60';
  const nginxId = '0f8e2a7c5b1d4e3f9a6b8c7d2e1f0a9b';

  it('never takes a client’s own id when no proxy is trusted', async () => {
    for (const incoming of ['my-own-id:123', proxyId]) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': incoming },
      });
      expect(res.headers['x-request-id']).toMatch(uuid);
      expect(res.headers['x-request-id']).not.toBe(incoming);
    }
  });

  it('keeps a trusted proxy’s UUID (or nginx’s 32 hex digits), and nothing else it sends', async () => {
    const behindProxy = await buildTestApp({ config: testConfig({ webDistDir, trustProxy: 1 }), database });
    try {
      const idFor = async (incoming: string) =>
        (
          await behindProxy.inject({
            method: 'GET',
            url: '/api/health',
            headers: { 'x-request-id': incoming },
          })
        ).headers['x-request-id'];
      expect(await idFor(proxyId)).toBe(proxyId);
      expect(await idFor(nginxId)).toBe(nginxId);
      for (const bad of ['my-own-id:123', 'lb-1234', 'bad id\nwith newline', `${proxyId}x`]) {
        expect(await idFor(bad)).toMatch(uuid);
      }
    } finally {
      await behindProxy.close();
    }
  });

  it('trusts a listed proxy address only', async () => {
    const listed = await buildTestApp({
      config: testConfig({ webDistDir, trustProxy: ['10.0.0.0/8'] }),
      database,
    });
    try {
      const from = async (remoteAddress: string) =>
        (
          await listed.inject({
            method: 'GET',
            url: '/api/health',
            remoteAddress,
            headers: { 'x-request-id': proxyId },
          })
        ).headers['x-request-id'];
      expect(await from('10.1.2.3')).toBe(proxyId);
      expect(await from('192.168.1.9')).not.toBe(proxyId);
    } finally {
      await listed.close();
    }
  });
});

describe('requests Node refuses before Fastify sees them', () => {
  let server: App;
  let port: number;

  beforeAll(async () => {
    const base = testConfig({ webDistDir });
    server = await buildTestApp({ config: { ...base, feeds: { ...base.feeds, sources: [] } }, database });
    await server.listen({ port: 0, host: '127.0.0.1' });
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  /** Sends raw bytes and reads the whole answer (the server closes the connection). */
  const raw = (request: string): Promise<{ status: number; headers: string; body: string }> =>
    new Promise((resolve, reject) => {
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

  it('answers headers over the size limit with a 431 in the error shape', async () => {
    const res = await raw(`GET /api/health HTTP/1.1\r\nHost: gem\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
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

describe('web app', () => {
  it('serves index.html for every page route, with history fallback', async () => {
    for (const url of ['/', '/tools', '/tools/article', '/market-research/priority-clients/orlen']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers an unknown page with the app shell and status 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/no/such/page' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed assets with a long cache and a missing file as a 404', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await app.inject({ method: 'GET', url: '/assets/gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(errorResponseSchema.parse(missing.json()).error.code).toBe('not_found');
  });

  it("sends the build's Brotli or gzip copy of an asset as it is, and the file itself to a client that takes neither", async () => {
    const url = '/assets/app-def456.js';
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigAsset);
    expect(br.rawPayload.equals(readFileSync(path.join(webDistDir, `${url}.br`)))).toBe(true);

    const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(bigAsset);
    expect(gz.rawPayload.equals(readFileSync(path.join(webDistDir, `${url}.gz`)))).toBe(true);

    // An asset the build left without copies (under 1 KB) is still sent, compressed as it goes.
    const small = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(small.rawPayload).toString()).toBe('console.log("gem")');

    const plain = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bigAsset);
  });

  it('does not serve files outside the web folder', async () => {
    const res = await app.inject({ method: 'GET', url: '/../../package.json' });
    expect(res.body).not.toContain('"workspaces"');
  });
});

describe('graceful shutdown', () => {
  it('finishes requests in flight and answers later ones with 503 while closing', async () => {
    // No feeds: a listening server reads them at start, and that round is not what this test is about.
    const base = testConfig({ webDistDir });
    const server = await buildTestApp({
      config: { ...base, feeds: { ...base.feeds, sources: [] } },
      database,
    });
    const gate = deferred();
    const entered = deferred();
    const closing = deferred();
    server.get('/api/test/slow', async () => {
      entered.resolve();
      await gate.promise;
      return { done: true };
    });
    // Runs after the drain plugin's own preClose: from then on, new requests get the 503.
    server.addHook('preClose', async () => closing.resolve());
    await server.listen({ port: 0, host: '127.0.0.1' });
    let connections = 0;
    const bothConnected = deferred();
    server.server.on('connection', () => {
      connections += 1;
      if (connections === 2) bothConnected.resolve();
    });
    const { port } = server.server.address() as AddressInfo;

    const open = (): { send: (text: string) => void; reply: Promise<string> } => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      return {
        send: (text) => socket.write(text),
        reply: new Promise((resolve) => socket.on('close', () => resolve(received))),
      };
    };
    // A request in flight, and one whose headers are still arriving when close() is called.
    const inFlight = open();
    inFlight.send('GET /api/test/slow HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    const late = open();
    late.send('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
    await Promise.all([entered.promise, bothConnected.promise]);

    const closed = server.close();
    await closing.promise;
    late.send('Connection: close\r\n\r\n');
    const lateReply = await late.reply;
    expect(lateReply).toMatch(/^HTTP\/1\.1 503/);
    expect(lateReply).toContain('"code":"service_unavailable"');

    gate.resolve();
    const inFlightReply = await inFlight.reply;
    expect(inFlightReply).toMatch(/^HTTP\/1\.1 200/);
    expect(inFlightReply).toContain('{"done":true}');
    await closed;
  });
});
