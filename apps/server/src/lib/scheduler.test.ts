import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database';
import type { Database } from '../db/client';
import { scheduledTasks } from '../db/schema/scheduler';
import { createScheduler, type ScheduledTask, type Scheduler, type SchedulerOptions } from './scheduler';

const silent = pino({ level: 'silent' });
const MINUTE = 60_000;
let database: Database;
const schedulers: Scheduler[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.delete(scheduledTasks);
});
afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((s) => s.stop()));
});

/** A clock the test moves by hand. */
function manualClock(start = Date.UTC(2026, 2, 2, 8)) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves when the signal aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
  );

const scheduler = (options: Partial<SchedulerOptions> = {}) => {
  const s = createScheduler({ db: database.db, log: silent, ...options });
  schedulers.push(s);
  return s;
};

const task = (overrides: Partial<ScheduledTask> = {}): ScheduledTask => ({
  name: 'test-task',
  intervalMs: 10 * MINUTE,
  leaseMs: MINUTE,
  run: async () => undefined,
  ...overrides,
});

const row = async (name = 'test-task') =>
  (await database.db.select().from(scheduledTasks).where(eq(scheduledTasks.name, name)))[0];

describe('a scheduled task', () => {
  it('runs when first due, records the run, and not again until its interval has passed', async () => {
    const clock = manualClock();
    const s = scheduler({ now: clock.now });
    let runs = 0;
    s.every(task({ run: async () => void (runs += 1) }));

    expect(await s.runNow('test-task')).toBe(true);
    const started = clock.now();
    expect(await row()).toEqual({
      name: 'test-task',
      leasedBy: null,
      leaseUntil: null,
      lastStartedAt: started,
      lastFinishedAt: started,
      lastError: null,
    });

    clock.advance(9 * MINUTE);
    expect(await s.runNow('test-task')).toBe(false);
    clock.advance(MINUTE);
    expect(await s.runNow('test-task')).toBe(true);
    expect(runs).toBe(2);
  });

  it('counts a tick up to half a tick early as on time, so runs do not slip a tick each interval', async () => {
    const clock = manualClock();
    const s = scheduler({ now: clock.now, tickMs: MINUTE });
    s.every(task());
    await s.runNow('test-task');
    clock.advance(9 * MINUTE + 29_000);
    expect(await s.runNow('test-task')).toBe(false);
    clock.advance(1_000);
    expect(await s.runNow('test-task')).toBe(true);
  });

  it('runs early when the task says its work cannot wait, and not otherwise', async () => {
    const clock = manualClock();
    const s = scheduler({ now: clock.now });
    let urgent = false;
    s.every(task({ dueEarly: async () => urgent }));
    await s.runNow('test-task');
    expect(await s.runNow('test-task')).toBe(false);
    urgent = true;
    expect(await s.runNow('test-task')).toBe(true);
  });

  it('records a failure as a plain message, logs it, and still runs at the next interval', async () => {
    const lines: { msg: string; task?: string; err?: { message: string } }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const clock = manualClock();
    const s = scheduler({ now: clock.now, log });
    let fail = true;
    s.every(
      task({
        run: async () => {
          if (fail) throw new Error('Failed query: update ... params: someone@example.com');
        },
      }),
    );

    expect(await s.runNow('test-task')).toBe(true);
    const failed = await row();
    expect(failed).toMatchObject({ leasedBy: null, lastError: 'failed (Error): see the server log' });
    expect(JSON.stringify(failed)).not.toContain('someone@example.com');
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'background task failed', task: 'test-task' }),
    );

    fail = false;
    clock.advance(10 * MINUTE);
    expect(await s.runNow('test-task')).toBe(true);
    expect((await row())?.lastError).toBeNull();
  });

  it('refuses a second task of the same name', () => {
    const s = scheduler();
    s.every(task());
    expect(() => s.every(task())).toThrow(/already registered/);
  });
});

describe('several instances on one database', () => {
  it('runs a task once when every instance claims it at the same moment', async () => {
    const clock = manualClock();
    let runs = 0;
    const instances = Array.from({ length: 5 }, () => {
      const s = scheduler({ now: clock.now });
      s.every(task({ run: async () => void (runs += 1) }));
      return s;
    });
    const ran = await Promise.all(instances.map((s) => s.runNow('test-task')));
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    // Not due again yet, on any of them.
    expect(await Promise.all(instances.map((s) => s.runNow('test-task')))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('never runs a task another instance holds, even when forced', async () => {
    const clock = manualClock();
    const [a, b] = [scheduler({ now: clock.now }), scheduler({ now: clock.now })];
    const started = deferred();
    const finish = deferred();
    a.every(
      task({
        run: async () => {
          started.resolve();
          await finish.promise;
        },
      }),
    );
    b.every(task());
    const first = a.runNow('test-task');
    await started.promise;
    expect(await b.runNow('test-task', { force: true })).toBe(false);
    finish.resolve();
    expect(await first).toBe(true);
    expect(await b.runNow('test-task', { force: true })).toBe(true);
  });

  it('takes over the task of an instance that died once its lease has run out', async () => {
    const clock = manualClock();
    const [dead, alive] = [scheduler({ now: clock.now }), scheduler({ now: clock.now })];
    const started = deferred();
    // The dead instance claims the task and neither finishes nor renews it (a renewal is 20 s away).
    dead.every(
      task({
        intervalMs: MINUTE,
        leaseMs: MINUTE,
        run: async (signal) => {
          started.resolve();
          await aborted(signal);
        },
      }),
    );
    let runs = 0;
    alive.every(task({ intervalMs: MINUTE, leaseMs: MINUTE, run: async () => void (runs += 1) }));
    void dead.runNow('test-task');
    await started.promise;

    clock.advance(MINUTE);
    expect(await alive.runNow('test-task')).toBe(false);
    clock.advance(1);
    expect(await alive.runNow('test-task')).toBe(true);
    expect(runs).toBe(1);
    expect(await row()).toMatchObject({ leasedBy: null, lastFinishedAt: clock.now() });
  });

  it('cancels a run whose lease another instance has taken', async () => {
    const s = scheduler();
    const started = deferred();
    let cancelled = false;
    // A short lease, renewed every 10 ms: the renewal finds the lease gone.
    s.every(
      task({
        leaseMs: 30,
        run: async (signal) => {
          started.resolve();
          await aborted(signal);
          cancelled = true;
        },
      }),
    );
    const run = s.runNow('test-task');
    await started.promise;
    await database.db.update(scheduledTasks).set({ leasedBy: 'another-instance' });
    expect(await run).toBe(true);
    expect(cancelled).toBe(true);
    // The row is the other instance's: this one's end of run does not touch it.
    expect(await row()).toMatchObject({ leasedBy: 'another-instance', lastFinishedAt: null });
  });
});

describe('starting and stopping', () => {
  it('runs a first tick at start, then looks again every tick', async () => {
    const clock = manualClock();
    const s = scheduler({ now: clock.now, tickMs: 5 });
    const runs = [deferred(), deferred()];
    let n = 0;
    s.every(task({ intervalMs: MINUTE, run: async () => runs[n++]?.resolve() }));
    s.start();
    await runs[0]!.promise;
    await s.idle();
    expect(n).toBe(1);
    clock.advance(MINUTE);
    await runs[1]!.promise;
    await s.stop();
    expect(n).toBe(2);
  });

  it('stop() cancels the run in flight, waits for it to wind down, and hands the task back', async () => {
    const s = scheduler();
    const started = deferred();
    let woundDown = false;
    s.every(
      task({
        run: async (signal) => {
          started.resolve();
          await aborted(signal);
          woundDown = true;
          throw signal.reason;
        },
      }),
    );
    s.start();
    await started.promise;
    await s.stop();
    expect(woundDown).toBe(true);
    expect(await row()).toMatchObject({
      leasedBy: null,
      leaseUntil: null,
      lastError: 'cancelled: the instance stopped',
    });
    expect(await s.runNow('test-task', { force: true })).toBe(false);
  });
});
