import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { constantAnswer, serializerCompiler } from './serializer';

const schema = z.object({ items: z.array(z.object({ name: z.string() })) });

async function appAnswering(answer: () => unknown) {
  const app = Fastify();
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
