import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database';
import { recordAiCall } from '../lib/ai/ai-call-log';
import type { Database } from './client';
import { rowsOf } from './rows';
import { users } from './schema/index';

/**
 * The usage rollups (migration 0020): kept by a trigger as each generation is recorded, so every
 * figure of the usage page is the sum of its records, and latency falls in the right bucket.
 */

let database: Database;
let alice: string;
let bob: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const rows = await database.db
    .insert(users)
    .values([
      { issuer: 'https://idp.example', subject: 'alice', email: 'alice@example.com' },
      { issuer: 'https://idp.example', subject: 'bob', email: 'bob@example.com' },
    ])
    .returning({ id: users.id });
  [alice, bob] = rows.map((r) => r.id) as [string, string];
});
afterAll(() => database.close());

const record = (userId: string, over: Partial<Parameters<typeof recordAiCall>[1]> = {}) =>
  recordAiCall(database.db, {
    id: randomUUID(),
    userId,
    tool: 'article',
    input: { text: 'x' },
    output: null,
    model: 'gpt-test',
    usage: { promptTokens: 100, completionTokens: 40 },
    startedAt: new Date('2026-11-20T10:00:00Z'),
    latencyMs: 800,
    outcome: 'succeeded',
    errorCode: null,
    ...over,
  });

describe('the usage rollups', () => {
  it('equal the sums of the records, per day, user, tool, model and ending', async () => {
    await record(alice);
    await record(alice, { usage: { promptTokens: 7, completionTokens: 3 }, latencyMs: 1200 });
    // Just before midnight UTC, and just after: two days.
    await record(alice, { startedAt: new Date('2026-11-20T23:59:59.999Z') });
    await record(alice, { startedAt: new Date('2026-11-21T00:00:00Z') });
    await record(alice, {
      outcome: 'failed',
      errorCode: 'ai_timeout',
      usage: null,
      model: null,
      latencyMs: 30_000,
    });
    await record(bob, { tool: 'teaser-generator' });

    const rollups = await rowsOf<Record<string, unknown>>(
      database.db,
      sql`select day::text as day, user_id, tool, model, outcome, error_code, generations,
            prompt_tokens::int as prompt, completion_tokens::int as completion, latency_ms_sum::int as latency
          from usage_daily order by day, user_id, tool, model, outcome`,
    );
    const records = await rowsOf<Record<string, unknown>>(
      database.db,
      sql`select (created_at at time zone 'UTC')::date::text as day, user_id, generator as tool,
            coalesce(model, '') as model, outcome, coalesce(error_code, '') as error_code,
            count(*)::int as generations, coalesce(sum(prompt_tokens), 0)::int as prompt,
            coalesce(sum(completion_tokens), 0)::int as completion, sum(latency_ms)::int as latency
          from generations group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5`,
    );
    expect(rollups).toEqual(records);
    const aliceOn20th = rollups.filter(
      (r) => r.user_id === alice && r.day === '2026-11-20' && r.outcome === 'succeeded',
    );
    expect(aliceOn20th).toEqual([
      expect.objectContaining({ generations: 3, prompt: 207, completion: 83, latency: 2800 }),
    ]);
    expect(rollups).toContainEqual(
      expect.objectContaining({ outcome: 'failed', error_code: 'ai_timeout', model: '', prompt: 0 }),
    );
  });

  it('put each latency in the bucket whose bound (50 ms × 1.1^k) is the first at or above it', async () => {
    const bucketOf = async (ms: number) => {
      const [row] = await rowsOf<{ b: number }>(database.db, sql`select gem_latency_bucket(${ms}::int) as b`);
      return Number(row!.b);
    };
    expect(await bucketOf(0)).toBe(0);
    expect(await bucketOf(50)).toBe(0);
    expect(await bucketOf(51)).toBe(1);
    expect(await bucketOf(55)).toBe(1);
    expect(await bucketOf(56)).toBe(2);
    for (const ms of [100, 999, 1000, 12_345, 600_000]) {
      const k = await bucketOf(ms);
      expect(50 * 1.1 ** k, `${ms} ms`).toBeGreaterThanOrEqual(ms - 1e-6);
      expect(50 * 1.1 ** (k - 1), `${ms} ms`).toBeLessThan(ms);
    }
    // Beyond the last bucket (50 ms × 1.1^120 ≈ 4.6 h): the last one.
    expect(await bucketOf(2_000_000_000)).toBe(120);

    const counted = await rowsOf<{ n: number }>(
      database.db,
      sql`select sum(generations)::int as n from usage_latency_daily`,
    );
    const recorded = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from generations`,
    );
    expect(counted[0]!.n).toBe(recorded[0]!.n);
  });

  it('go with the user when the user is forgotten', async () => {
    await database.db.execute(sql`delete from users where id = ${bob}`);
    const left = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from usage_daily where user_id = ${bob}`,
    );
    expect(left[0]!.n).toBe(0);
  });
});
