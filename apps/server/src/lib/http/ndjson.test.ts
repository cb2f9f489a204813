import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sendNdjson } from './ndjson';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sendNdjson', () => {
  const app = Fastify();
  afterEach(async () => {
    await app.close();
  });

  it('writes an empty line while the events are slow to come, and none once they flow', async () => {
    async function* events() {
      await sleep(260); // silence: heartbeats
      for (let i = 0; i < 6; i += 1) {
        yield { type: 'delta', i };
        await sleep(5); // steady events: no heartbeat between them
      }
    }
    app.post('/stream', { compress: false } as never, (_req, reply) =>
      sendNdjson(reply, events(), { heartbeatMs: 100 }),
    );
    const res = await app.inject({ method: 'POST', url: '/stream' });
    expect(res.headers['x-accel-buffering']).toBe('no');
    const lines = res.body.split('\n');
    const firstEvent = lines.findIndex((l) => l !== '');
    expect(firstEvent).toBeGreaterThanOrEqual(2);
    expect(lines.slice(0, firstEvent).every((l) => l === '')).toBe(true);
    // After the first event every line is an event, and the body ends with one.
    expect(lines.slice(firstEvent, -1).map((l) => JSON.parse(l) as { i: number })).toHaveLength(6);
    expect(lines.at(-1)).toBe('');
  });
});
