import { EventEmitter, once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createBudgetedWorker,
  type BudgetedWorkerEvent,
  type BudgetedWorkerOptions,
} from './budgeted-worker';
import type { FixtureRequest } from './budgeted-worker.fixture';

class Refused extends Error {}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((w) => w.close()));
});

/** A worker on the fixture script; its events are emitted on `events`. */
function fixtureWorker(options: Partial<BudgetedWorkerOptions> = {}) {
  const events = new EventEmitter();
  const seen: BudgetedWorkerEvent[] = [];
  const worker = createBudgetedWorker<FixtureRequest, string>({
    script: new URL('./budgeted-worker.fixture.ts', import.meta.url),
    limits: { maxMemoryMb: 64 },
    failure: { subject: 'the request', error: (message) => new Refused(message) },
    onEvent: (event) => {
      seen.push(event);
      events.emit(event);
    },
    ...options,
  });
  opened.push(worker);
  return { worker, events, seen };
}

describe('a budgeted worker', () => {
  it('answers requests one at a time on one worker thread', async () => {
    const { worker, seen } = fixtureWorker();
    const answers = await Promise.all([worker.run({ word: 'a' }), worker.run({ word: 'b' })]);
    expect(answers).toEqual(['A', 'B']);
    expect(seen).toEqual(['started']);
  });

  it('terminates a worker past the time budget, fails its request, and starts a new one for the next', async () => {
    // The spinning request never ends, so any budget is passed; one long enough that the next
    // request (a word in upper case) never runs out of it on a busy machine.
    const { worker, seen } = fixtureWorker({ limits: { budgetMs: 1_000 } });
    const slow = worker.run({ spin: true });
    const after = worker.run({ word: 'next' });
    const err = await slow.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Refused);
    expect((err as Error).message).toBe('the request took too long to parse (more than 1 s)');
    expect(await after).toBe('NEXT');
    expect(seen).toEqual(['started', 'over-budget', 'started']);
  });

  it('stops the worker once idle, and starts one again for the next request', async () => {
    const { worker, events, seen } = fixtureWorker({ limits: { idleMs: 1 } });
    const idle = once(events, 'idle-stopped');
    expect(await worker.run({ word: 'x' })).toBe('X');
    await idle;
    expect(await worker.run({ word: 'y' })).toBe('Y');
    expect(seen).toEqual(['started', 'idle-stopped', 'started']);
  });

  it('refuses a cancelled request and requests once closed', async () => {
    const { worker } = fixtureWorker();
    const cancel = new AbortController();
    const cancelled = worker.run({ spin: true }, cancel.signal);
    cancel.abort(new Error('shutting down'));
    await expect(cancelled).rejects.toThrow('shutting down');
    const queued = expect(worker.run({ word: 'z' })).rejects.toThrow('the budgeted worker fixture is closed');
    await worker.close();
    await queued;
    await expect(worker.run({ word: 'z' })).rejects.toThrow('the budgeted worker fixture is closed');
  });
});
