/**
 * Politeness: at most one request to a host at a time, and a pause between two requests to it
 * (the configured delay, or the site's Crawl-delay when larger). A host that answers 429 or 503
 * with Retry-After is left alone for that long. The clock and the pause are handed in, so tests
 * run on a virtual clock and never sleep.
 */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export type HostGate = {
  /** Resolves when a request to `host` may start, `gapMs` after the previous one started. */
  wait(host: string, gapMs: number, signal?: AbortSignal): Promise<void>;
  /** No request to `host` before `ms` from now (Retry-After). */
  holdOff(host: string, ms: number): void;
};

export function createHostGate({ now, sleep }: { now: () => number; sleep: Sleep }): HostGate {
  /** When the last request to each host started (or was allowed to), and when it may next. */
  const hosts = new Map<string, { last: number | undefined; notBefore: number; queue: Promise<void> }>();
  const entry = (host: string) => {
    let e = hosts.get(host);
    if (!e) hosts.set(host, (e = { last: undefined, notBefore: 0, queue: Promise.resolve() }));
    return e;
  };
  return {
    wait(host, gapMs, signal) {
      const e = entry(host);
      // Requests to one host take their turns in order; a cancelled turn does not block the next.
      const turn = e.queue.then(async () => {
        for (;;) {
          const at = Math.max(e.notBefore, e.last === undefined ? 0 : e.last + gapMs);
          const left = at - now();
          if (left <= 0) break;
          await sleep(left, signal);
        }
        e.last = now();
      });
      e.queue = turn.catch(() => undefined);
      return turn;
    },
    holdOff(host, ms) {
      const e = entry(host);
      e.notBefore = Math.max(e.notBefore, now() + ms);
    },
  };
}

const MAX_DATE_MS = 8.64e15;

/** A Retry-After value (seconds, or an HTTP date) as milliseconds from `now`; undefined if unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (!Number.isFinite(at) || Math.abs(at) > MAX_DATE_MS) return undefined;
  return Math.max(0, at - now);
}
