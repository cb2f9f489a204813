import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../../../test/deferred';
import { sendNdjson } from './ndjson';

describe('sendNdjson', () => {
  const app = Fastify();
  afterEach(async () => {
    vi.useRealTimers();
    await app.close();
  });

  it('writes an empty line while the events are slow to come, and none once they flow', async () => {
    // The heartbeat's clock is a fake one, moved on by the test: no sleeping on real time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const silenceOver = deferred();
    const steps = Array.from({ length: 6 }, () => deferred());
    async function* events() {
      await silenceOver.promise; // silence: heartbeats
      for (let i = 0; i < 6; i += 1) {
        yield { type: 'delta', i };
        await steps[i]!.promise; // steady events: no heartbeat between them
      }
    }
    app.post('/stream', { compress: false } as never, (_req, reply) =>
      sendNdjson(reply, events(), { heartbeatMs: 100 }),
    );
    const answer = app.inject({ method: 'POST', url: '/stream' });
    await vi.advanceTimersByTimeAsync(260);
    silenceOver.resolve();
    for (const step of steps) {
      await vi.advanceTimersByTimeAsync(60);
      step.resolve();
    }
    const res = await answer;
    expect(res.headers['x-accel-buffering']).toBe('no');
    const lines = res.body.split('\n');
    const firstEvent = lines.findIndex((l) => l !== '');
    // Two heartbeats in 260 ms of silence at 100 ms each.
    expect(firstEvent).toBe(2);
    expect(lines.slice(0, firstEvent).every((l) => l === '')).toBe(true);
    // After the first event every line is an event, and the body ends with one.
    expect(lines.slice(firstEvent, -1).map((l) => JSON.parse(l) as { i: number })).toHaveLength(6);
    expect(lines.at(-1)).toBe('');
  });
});
