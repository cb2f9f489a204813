import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';

/** Answers marked by `constantAnswer`: deep-frozen, so the same object always says the same. */
const constants = new WeakSet<object>();

function deepFreeze(value: unknown) {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const field of Object.values(value)) deepFreeze(field);
}

/**
 * Marks an answer a service makes once and hands out again and again (a list built from
 * configuration): it is frozen all the way down, and the response serializer checks it against
 * the route's schema and writes it out on its first request only.
 */
export function constantAnswer<T extends object>(value: T): Readonly<T> {
  deepFreeze(value);
  constants.add(value);
  return value;
}

/**
 * fastify-type-provider-zod's response serializer (the answer checked against the route's
 * response schema, then JSON.stringify), remembering constant answers per route as their UTF-8
 * bytes: Fastify sends a Buffer as it is, where a string is measured and encoded again on every
 * request (for a 2.7 kB answer, 7% of its CPU: bench/access-gate.md).
 */
export const serializerCompiler: typeof zodSerializerCompiler = (route) => {
  const serialize = zodSerializerCompiler(route);
  const written = new WeakMap<object, Buffer>();
  return (data) => {
    if (typeof data !== 'object' || data === null || !constants.has(data)) return serialize(data);
    let bytes = written.get(data);
    if (bytes === undefined) {
      bytes = Buffer.from(serialize(data));
      written.set(data, bytes);
    }
    // Fastify's types say a serializer returns a string; its reply sends a Buffer the same way.
    return bytes as unknown as string;
  };
};
