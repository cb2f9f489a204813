import { LlmError } from './text-model';

/** An async generator as a stream whose `result` settles with its return value. */
export function settledStream<Y, R>(
  chunks: AsyncGenerator<Y, R>,
): AsyncIterable<Y> & { readonly result: Promise<R> } {
  let settle!: { resolve: (r: R) => void; reject: (e: unknown) => void };
  const result = new Promise<R>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Whoever reads the stream sees the error; the promise must not count as unhandled.
  result.catch(() => undefined);

  async function* iterate() {
    try {
      settle.resolve(yield* chunks);
    } catch (err) {
      settle.reject(err);
      throw err;
    } finally {
      settle.reject(new LlmError('cancelled', 'the stream was left before its end'));
    }
  }
  return Object.assign(iterate(), { result });
}

/** Runs a generator that yields nothing to its end. */
export async function returned<R>(call: AsyncGenerator<unknown, R>): Promise<R> {
  const next = await call.next();
  if (!next.done) throw new Error('a whole answer yielded a chunk');
  return next.value;
}
