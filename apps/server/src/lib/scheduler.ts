import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { scheduledTasks } from '../db/schema/scheduler';

/**
 * Background work that runs once across GEM instances (docs/decisions/010). Every instance
 * ticks (once a minute by default) and tries to claim each of its due tasks with one atomic
 * statement on the task's row in scheduled_tasks: the claim succeeds only while nobody holds
 * the lease and the interval has passed since the last start, so with several instances on
 * one database a task runs once per interval. The running instance renews its lease; when an
 * instance dies its lease runs out and another instance takes the task over.
 */

export type ScheduledTask = {
  /** Unique across GEM, e.g. "market-research.feed-refresh": the key of the task's row. */
  name: string;
  /** Time from one start to the next. */
  intervalMs: number;
  /** How long a claim holds without renewal: how soon another instance takes over from a dead one. */
  leaseMs: number;
  /**
   * Work that should not wait for the interval (e.g. a feed just added to the feeds file):
   * asked at each tick while the task is not due; true claims it now, if nobody holds it.
   */
  dueEarly?: () => Promise<boolean>;
  /** The work. `signal` aborts when the instance stops or loses the lease: wind down then. */
  run(signal: AbortSignal): Promise<void>;
};

export type SchedulerOptions = {
  db: Db;
  log: FastifyBaseLogger;
  /** How often an instance looks for due tasks (default a minute). */
  tickMs?: number;
  /** The clock leases and intervals are measured by. */
  now?: () => Date;
};

export type Scheduler = {
  /** Registers a task; it runs from the first tick after start() on which it is due. */
  every(task: ScheduledTask): void;
  /** A first tick now, then one every tickMs. */
  start(): void;
  /** Stops ticking, cancels the runs in flight and waits for them to wind down. */
  stop(): Promise<void>;
  /**
   * One tick of one task, now, waiting for its run: true when this instance claimed and ran
   * it. `force` ignores the interval (never another instance's lease). For tests and tools.
   */
  runNow(name: string, options?: { force?: boolean }): Promise<boolean>;
  /** Resolves once this instance has no claim or run in flight. For tests. */
  idle(): Promise<void>;
};

const DEFAULT_TICK_MS = 60_000;

/** What the row says after a run; messages are plain, the details go to the log. */
const CANCELLED = 'cancelled: the instance stopped';
const LEASE_LOST = 'cancelled: another instance took the task over';
const FAILED = (err: unknown) =>
  `failed (${err instanceof Error ? err.name : 'unknown error'}): see the server log`;

type Run = { controller: AbortController; done: Promise<void> };

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { db, log } = options;
  const tickMs = options.tickMs ?? DEFAULT_TICK_MS;
  const now = options.now ?? (() => new Date());
  const owner = randomUUID();
  const tasks = new Map<string, ScheduledTask>();
  const running = new Map<string, Run>();
  const claiming = new Set<Promise<unknown>>();
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const isOurs = (name: string) => and(eq(scheduledTasks.name, name), eq(scheduledTasks.leasedBy, owner));

  /**
   * The claim: inserts the task's row on its first run, otherwise takes it only if the lease is
   * free (none, or expired) and the task is due. A tick that comes up to half a tick early still
   * counts, so runs keep their interval on average instead of slipping a tick later each time.
   */
  async function claim(task: ScheduledTask, force: boolean): Promise<boolean> {
    const at = now();
    const leaseUntil = new Date(at.getTime() + task.leaseMs);
    const slack = Math.min(tickMs / 2, task.intervalMs / 2);
    const dueBefore = new Date(at.getTime() - task.intervalMs + slack);
    const lease = { leasedBy: owner, leaseUntil, lastStartedAt: at };
    const claimed = await db
      .insert(scheduledTasks)
      .values({ name: task.name, ...lease })
      .onConflictDoUpdate({
        target: scheduledTasks.name,
        set: lease,
        setWhere: and(
          or(isNull(scheduledTasks.leaseUntil), lt(scheduledTasks.leaseUntil, at)),
          force
            ? undefined
            : or(isNull(scheduledTasks.lastStartedAt), lte(scheduledTasks.lastStartedAt, dueBefore)),
        ),
      })
      .returning({ name: scheduledTasks.name });
    return claimed.length > 0;
  }

  async function release(
    task: ScheduledTask,
    outcome: { ran: true; error: string | null } | { ran: false },
  ): Promise<void> {
    await db
      .update(scheduledTasks)
      .set(
        outcome.ran
          ? { leasedBy: null, leaseUntil: null, lastFinishedAt: now(), lastError: outcome.error }
          : // Claimed, never started (the instance was stopping): due again at any instance's next tick.
            { leasedBy: null, leaseUntil: null, lastStartedAt: null },
      )
      .where(isOurs(task.name));
  }

  /** Extends the lease of a run in flight; a run that finds the lease gone is cancelled. */
  async function renew(
    task: ScheduledTask,
    controller: AbortController,
    isOver: () => boolean,
  ): Promise<void> {
    try {
      const kept = await db
        .update(scheduledTasks)
        .set({ leaseUntil: new Date(now().getTime() + task.leaseMs) })
        .where(isOurs(task.name))
        .returning({ name: scheduledTasks.name });
      // A renewal that lands after the run handed its lease back finds nothing, rightly.
      if (kept.length === 0 && !isOver() && !controller.signal.aborted) {
        log.warn(
          { task: task.name },
          'background task lost its lease to another instance; cancelling this run',
        );
        controller.abort();
      }
    } catch (err) {
      // The database may be back before the lease runs out: keep working, try again next time.
      log.warn({ err, task: task.name }, 'could not renew the lease of a background task');
    }
  }

  function launch(task: ScheduledTask): Run {
    const controller = new AbortController();
    let over = false;
    const renewal = setInterval(
      () => void renew(task, controller, () => over),
      Math.max(1, Math.floor(task.leaseMs / 3)),
    );
    renewal.unref();
    const done = (async () => {
      let error: string | null = null;
      try {
        await task.run(controller.signal);
      } catch (err) {
        // Cancelled (a stop, or a lost lease, already logged): how it ended is not a failure of the task.
        if (controller.signal.aborted) {
          error = stopped ? CANCELLED : LEASE_LOST;
        } else {
          error = FAILED(err);
          log.error({ err, task: task.name }, 'background task failed');
        }
      } finally {
        clearInterval(renewal);
        over = true;
        await release(task, { ran: true, error }).catch((err: unknown) =>
          log.error({ err, task: task.name }, 'could not release the lease of a background task'),
        );
        running.delete(task.name);
      }
    })();
    const run = { controller, done };
    running.set(task.name, run);
    return run;
  }

  /** Claims the task if it is due (or due early, or forced) and starts its run. */
  async function tickTask(task: ScheduledTask, force: boolean): Promise<Run | undefined> {
    if (stopped || running.has(task.name)) return undefined;
    let claimed = await claim(task, force);
    if (!claimed && !force && task.dueEarly && (await task.dueEarly())) claimed = await claim(task, true);
    // Already running here (our own lease had run out and was taken again): the run keeps it.
    if (!claimed || running.has(task.name)) return undefined;
    if (stopped) {
      await release(task, { ran: false });
      return undefined;
    }
    return launch(task);
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    claiming.add(promise);
    void promise.finally(() => claiming.delete(promise)).catch(() => undefined);
    return promise;
  }

  async function tick(): Promise<void> {
    await Promise.all(
      [...tasks.values()].map((task) =>
        track(tickTask(task, false)).catch((err: unknown) =>
          log.error({ err, task: task.name }, 'could not check whether a background task is due'),
        ),
      ),
    );
  }

  function loop() {
    void tick().finally(() => {
      if (stopped) return;
      timer = setTimeout(loop, tickMs);
      timer.unref();
    });
  }

  return {
    every(task) {
      if (tasks.has(task.name)) throw new Error(`a background task named ${task.name} is already registered`);
      if (!(task.intervalMs > 0) || !(task.leaseMs > 0)) {
        throw new Error(`background task ${task.name}: the interval and the lease must be positive`);
      }
      tasks.set(task.name, task);
    },
    start() {
      if (started || stopped) return;
      started = true;
      loop();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      // Claims in flight end first (a claim that lands now is handed back), then the runs.
      await Promise.allSettled([...claiming]);
      for (const run of running.values()) run.controller.abort();
      await Promise.allSettled([...running.values()].map((run) => run.done));
    },
    async runNow(name, { force = false } = {}) {
      const task = tasks.get(name);
      if (!task) throw new Error(`no background task named ${name}`);
      const run = await track(tickTask(task, force));
      if (!run) return false;
      await run.done;
      return true;
    },
    async idle() {
      while (claiming.size > 0 || running.size > 0) {
        await Promise.allSettled([...claiming, ...[...running.values()].map((run) => run.done)]);
      }
    },
  };
}
