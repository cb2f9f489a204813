/** A promise and its resolve, for a test to wait on an event (Promise.withResolvers is Node 22+). */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
