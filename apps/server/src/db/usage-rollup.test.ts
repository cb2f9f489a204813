import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database';
import { recordAiCall } from '../lib/ai/ai-call-log';
import type { Database } from './client';
import { rowsOf } from './rows';
import { users } from './schema/index';

/**
 * The usage rollups (migrations 0020, 0021 and 0023): kept by triggers as generations are recorded,
 * changed or removed, so every figure of the usage page is the sum of its records, and latency
 * falls in the right bucket.
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

  it('equal a direct aggregate of the records, every one of them, after inserts, updates and deletes', async () => {
    const expectAllEqual = async (when: string) => {
      for (const [table, rollup, direct] of rollupChecks) {
        const [a, b] = await Promise.all([rowsOf(database.db, rollup), rowsOf(database.db, direct)]);
        expect(a, `${table} ${when}`).toEqual(b);
      }
    };
    await expectAllEqual('at first');

    // Many records in one statement, over a week's edge (Sunday 2026-11-22 / Monday 2026-11-23).
    await database.db.execute(sql`insert into generations (user_id, generator, input, model, prompt_tokens,
        completion_tokens, latency_ms, outcome, error_code, created_at)
      select case when i % 3 = 0 then ${bob}::uuid else ${alice}::uuid end,
        (array['article', 'paid-ads', 'teaser-generator'])[1 + i % 3],
        '{}'::jsonb, case when i % 5 = 0 then null else 'gpt-' || (i % 2) end,
        case when i % 7 = 0 then null else i * 3 end, case when i % 7 = 0 then null else i end,
        40 + i * 97, case when i % 7 = 0 then 'failed' when i % 11 = 0 then 'cancelled' else 'succeeded' end,
        case when i % 7 = 0 then 'ai_timeout' when i % 11 = 0 then 'client_closed' end,
        timestamptz '2026-11-22T20:00:00Z' + i * interval '17 minutes'
      from generate_series(1, 60) as i`);
    await expectAllEqual('after a statement of many records');

    // Updates of every kind: tokens, ending, model, latency, day (and week), person, tool.
    await database.db.execute(sql`update generations set prompt_tokens = coalesce(prompt_tokens, 0) + 5
      where generator = 'article'`);
    await expectAllEqual('after tokens changed');
    await database.db.execute(sql`update generations set outcome = 'failed', error_code = 'ai_busy',
      model = null, latency_ms = latency_ms * 3 where generator = 'paid-ads' and latency_ms > 2000`);
    await expectAllEqual('after endings, models and latencies changed');
    await database.db.execute(sql`update generations set created_at = created_at - interval '1 day'
      where latency_ms % 2 = 0`);
    await expectAllEqual('after days (and weeks) changed');
    await database.db.execute(sql`update generations set user_id = ${bob}, generator = 'summarize'
      where user_id = ${alice} and outcome = 'cancelled'`);
    await expectAllEqual('after people and tools changed');
    await database.db.execute(sql`update generations set latency_ms = latency_ms where false`);
    await expectAllEqual('after an update of nothing');

    // Deletes: some records, then every record of a day.
    await database.db.execute(sql`delete from generations where latency_ms % 3 = 0`);
    await expectAllEqual('after some records were deleted');
    await database.db.execute(sql`delete from generations
      where (created_at at time zone 'UTC')::date = date '2026-11-23'`);
    await expectAllEqual('after a day was deleted');
    const emptied = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from usage_tool_daily where day = date '2026-11-23'`,
    );
    expect(emptied[0]!.n).toBe(0);
  });

  it('go with the user when the user is forgotten', async () => {
    await database.db.execute(sql`delete from users where id = ${bob}`);
    const left = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from usage_daily where user_id = ${bob}`,
    );
    expect(left[0]!.n).toBe(0);
    // The rollups without the person no longer count the forgotten person's records either.
    for (const [table, rollup, direct] of rollupChecks) {
      const [a, b] = await Promise.all([rowsOf(database.db, rollup), rowsOf(database.db, direct)]);
      expect(a, table).toEqual(b);
    }
  });
});

/** Each rollup as it is kept, and the same figures aggregated from the records, in one order. */
const rollupChecks: [string, ReturnType<typeof sql>, ReturnType<typeof sql>][] = [
  [
    'usage_daily',
    sql`select day::text as day, user_id, tool, model, outcome, error_code, generations,
        prompt_tokens::int as prompt, completion_tokens::int as completion, latency_ms_sum::int as latency
      from usage_daily order by 1, 2, 3, 4, 5, 6`,
    sql`select (created_at at time zone 'UTC')::date::text as day, user_id, generator as tool,
        coalesce(model, '') as model, outcome, coalesce(error_code, '') as error_code,
        count(*)::int as generations, coalesce(sum(prompt_tokens), 0)::int as prompt,
        coalesce(sum(completion_tokens), 0)::int as completion, sum(latency_ms)::int as latency
      from generations group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6`,
  ],
  [
    'usage_latency_daily',
    sql`select day::text as day, user_id, tool, bucket::int as bucket, generations
      from usage_latency_daily order by 1, 2, 3, 4`,
    sql`select (created_at at time zone 'UTC')::date::text as day, user_id, generator as tool,
        gem_latency_bucket(latency_ms)::int as bucket, count(*)::int as generations
      from generations group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
  ],
  [
    'usage_tool_daily',
    sql`select day::text as day, tool, model, outcome, error_code, generations,
        prompt_tokens::int as prompt, completion_tokens::int as completion, latency_ms_sum::int as latency
      from usage_tool_daily order by 1, 2, 3, 4, 5`,
    sql`select (created_at at time zone 'UTC')::date::text as day, generator as tool,
        coalesce(model, '') as model, outcome, coalesce(error_code, '') as error_code,
        count(*)::int as generations, coalesce(sum(prompt_tokens), 0)::int as prompt,
        coalesce(sum(completion_tokens), 0)::int as completion, sum(latency_ms)::int as latency
      from generations group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
  ],
  [
    'usage_tool_latency_daily',
    sql`select tool, day::text as day, bucket::int as bucket, generations
      from usage_tool_latency_daily order by 1, 2, 3`,
    // Tool '' counts every tool.
    sql`select t.tool, (g.created_at at time zone 'UTC')::date::text as day,
        gem_latency_bucket(g.latency_ms)::int as bucket, count(*)::int as generations
      from generations g cross join lateral (values (g.generator), ('')) t(tool)
      group by 1, 2, 3 order by 1, 2, 3`,
  ],
  [
    'usage_person_weekly',
    sql`select week::text as week, user_id, tool, model, generations, failed, cancelled,
        prompt_tokens::int as prompt, completion_tokens::int as completion
      from usage_person_weekly order by 1, 2, 3, 4`,
    // The Monday of the record's ISO week (UTC).
    sql`select date_trunc('week', created_at at time zone 'UTC')::date::text as week, user_id,
        generator as tool, coalesce(model, '') as model, count(*)::int as generations,
        (count(*) filter (where outcome = 'failed'))::int as failed,
        (count(*) filter (where outcome = 'cancelled'))::int as cancelled,
        coalesce(sum(prompt_tokens), 0)::int as prompt, coalesce(sum(completion_tokens), 0)::int as completion
      from generations group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
  ],
  [
    'usage_person_tool_weekly',
    sql`select week::text as week, user_id, tool, generations
      from usage_person_tool_weekly order by 1, 2, 3`,
    // Every model together: a row per row of the weekly usage table.
    sql`select date_trunc('week', created_at at time zone 'UTC')::date::text as week, user_id,
        generator as tool, count(*)::int as generations
      from generations group by 1, 2, 3 order by 1, 2, 3`,
  ],
  [
    'usage_person_model_weekly',
    sql`select week::text as week, user_id, model, generations, failed, cancelled,
        prompt_tokens::int as prompt, completion_tokens::int as completion
      from usage_person_model_weekly order by 1, 2, 3`,
    // Every tool together.
    sql`select date_trunc('week', created_at at time zone 'UTC')::date::text as week, user_id,
        coalesce(model, '') as model, count(*)::int as generations,
        (count(*) filter (where outcome = 'failed'))::int as failed,
        (count(*) filter (where outcome = 'cancelled'))::int as cancelled,
        coalesce(sum(prompt_tokens), 0)::int as prompt, coalesce(sum(completion_tokens), 0)::int as completion
      from generations group by 1, 2, 3 order by 1, 2, 3`,
  ],
];
