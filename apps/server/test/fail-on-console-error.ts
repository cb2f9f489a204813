import { afterEach, vi } from 'vitest';

// A test that logs console.error has hidden a failure: fail it.
const spy = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = spy.mock.calls.map((args) => args.map(String).join(' '));
  spy.mockClear();
  if (calls.length > 0) throw new Error(`console.error was called:\n${calls.join('\n')}`);
});
