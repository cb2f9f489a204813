import { gunzipSync } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { constantAnswer, serializerCompiler } from './serializer';

const schema = z.object({ items: z.array(z.object({ name: z.string() })) });

async function appAnswering(answer: () => unknown, { compressed = false } = {}) {
  const app = Fastify();
  if (compressed) await app.register(compress, { threshold: 1024 });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.get('/', { schema: { response: { 200: schema } } }, answer);
  await app.ready();
  return app;
}

describe('the response serializer', () => {
  it('checks a constant answer against the schema and writes it out once', async () => {
    let reads = 0;
    const item = { extra: 'left out: not in the schema' } as { name: string; extra: string };
    Object.defineProperty(item, 'name', {
      enumerable: true,
      get: () => {
        reads += 1;
        return 'a';
      },
    });
    const answer = constantAnswer({ items: [item] });
    expect(Object.isFrozen(answer.items)).toBe(true);
    expect(() => (answer.items as unknown[]).push(item)).toThrow(TypeError);
    const app = await appAnswering(() => answer);
    const first = await app.inject({ method: 'GET', url: '/' });
    expect(first.body).toBe('{"items":[{"name":"a"}]}');
    const readsForFirst = reads;
    expect(readsForFirst).toBeGreaterThan(0);
    const second = await app.inject({ method: 'GET', url: '/' });
    expect(second.body).toBe(first.body);
    expect(reads).toBe(readsForFirst);
    await app.close();
  });

  it('sends a constant answer as its UTF-8 bytes, measured right, compressed when asked', async () => {
    // Past the compression threshold, and with characters of two and three bytes in UTF-8.
    const names = Array.from({ length: 60 }, (_, i) => ({ name: `Łódź i Kraków, € ${i}` }));
    const app = await appAnswering(() => constantAnswer({ items: names }), { compressed: true });
    const expected = JSON.stringify({ items: names });
    const serialize = serializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' });
    const bytes = serialize(constantAnswer({ items: names })) as unknown;
    expect(Buffer.isBuffer(bytes) && (bytes as Buffer).toString('utf8')).toBe(expected);
    for (let i = 0; i < 2; i += 1) {
      const plain = await app.inject({ method: 'GET', url: '/' });
      expect(plain.body).toBe(expected);
      expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      const gzipped = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzipped.rawPayload).toString('utf8')).toBe(expected);
      const head = await app.inject({ method: 'HEAD', url: '/' });
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
      expect(head.body).toBe('');
    }
    await app.close();
  });

  it('still checks every other answer each time', async () => {
    let name: unknown = 'a';
    const app = await appAnswering(() => ({ items: [{ name }] }));
    expect((await app.inject({ method: 'GET', url: '/' })).body).toBe('{"items":[{"name":"a"}]}');
    name = 42;
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(500);
    await app.close();
  });

  it('refuses a constant answer that does not fit the schema', async () => {
    const app = await appAnswering(() => constantAnswer({ items: [{ name: 1 }] }));
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(500);
    await app.close();
  });
});
