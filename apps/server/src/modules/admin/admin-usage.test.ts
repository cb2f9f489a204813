import {
  adminPaths,
  latencyOfBucket,
  PRICE_NUMBER_ERROR,
  USAGE_RANGE_LENGTH_ERROR,
  USAGE_RANGE_ORDER_ERROR,
  usageGenerationsResponseSchema,
  usageResponseSchema,
  pricesResponseSchema,
  type UsageGeneration,
  type UsageResponse,
} from '@gem/contracts/admin-usage';
import { errorResponseSchema } from '@gem/contracts/errors';
import { randomUUID } from 'node:crypto';
import { and, eq, gte, lt } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessClaims } from '../../../test/test-app';
import { useAiHarness } from '../../../test/ai-harness';
import { auditEvents, generations, users } from '../../db/schema/index';
import { weekCover } from './admin-usage.service';

/**
 * The usage page's API (issue 30) against real records: generations made through the AI
 * platform and written straight into `generations` (the trigger keeps the rollups either way).
 * Every figure is checked against the sum of the records it stands for, and the drill-down lists
 * exactly those records.
 */
const h = useAiHarness();

type GenerationRow = typeof generations.$inferInsert;
let admin: string;
let people: { userId: string; email: string }[];

const get = async (url: string, query: Record<string, string | undefined> = {}) => {
  const search = new URLSearchParams(
    Object.entries(query).filter(([, v]) => v !== undefined) as [string, string][],
  );
  return h.main.inject({ method: 'GET', url: `${url}?${search}`, headers: { authorization: admin } });
};

const usage = async (query: Record<string, string | undefined>): Promise<UsageResponse> => {
  const res = await get(adminPaths.usage, query);
  expect(res.statusCode, res.body).toBe(200);
  return usageResponseSchema.parse(res.json());
};

/** Every record the drill-down lists for a query, page after page. */
async function drill(query: Record<string, string | undefined>): Promise<UsageGeneration[]> {
  const all: UsageGeneration[] = [];
  let before: string | undefined;
  do {
    const res = await get(adminPaths.usageGenerations, { ...query, before });
    expect(res.statusCode, res.body).toBe(200);
    const page = usageGenerationsResponseSchema.parse(res.json());
    all.push(...page.items);
    before = page.next ?? undefined;
  } while (before);
  return all;
}

/** The records of a range of days, read here to check the figures against. */
async function recordsOf(from: string, to: string) {
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  return h.database.db
    .select()
    .from(generations)
    .where(and(gte(generations.createdAt, new Date(`${from}T00:00:00Z`)), lt(generations.createdAt, end)));
}

const sum = <T>(rows: readonly T[], f: (r: T) => number) => rows.reduce((a, r) => a + f(r), 0);
const tokens = (r: GenerationRow) => (r.promptTokens ?? 0) + (r.completionTokens ?? 0);

// March 2026, written straight into the records: two people, two tools, two models, failures.
const tools = ['article', 'paid-ads'];
const models = ['gpt-a', 'gpt-b'];

beforeAll(async () => {
  admin = `Bearer ${await h.issuer.sign(accessClaims('admin'))}`;
  const inserted = await h.database.db
    .insert(users)
    .values([
      { issuer: 'https://idp.example', subject: 'ola', email: 'ola@gem.example', displayName: 'Ola Nowak' },
      { issuer: 'https://idp.example', subject: 'jan', email: 'jan@gem.example', displayName: 'Jan Kowal' },
    ])
    .returning({ userId: users.id, email: users.email });
  people = inserted.map((p) => ({ userId: p.userId, email: p.email! }));
  const records: GenerationRow[] = [];
  // 120 records over 2026-03-01..2026-03-20, with latencies from 20 ms to 12 s.
  for (let i = 0; i < 120; i++) {
    const failed = i % 7 === 0;
    const cancelled = i % 11 === 0 && !failed;
    records.push({
      id: randomUUID(),
      userId: people[i % 2]!.userId,
      generator: tools[i % 3 === 0 ? 1 : 0]!,
      input: { text: 'x' },
      output: null,
      model: failed && i % 2 === 0 ? null : models[i % 5 === 0 ? 1 : 0]!,
      promptTokens: failed ? null : 100 + i,
      completionTokens: failed ? null : 30 + (i % 13),
      latencyMs: 20 + ((i * 997) % 12_000),
      outcome: failed ? 'failed' : cancelled ? 'cancelled' : 'succeeded',
      errorCode: failed
        ? i % 2 === 0
          ? 'ai_unavailable'
          : 'ai_timeout'
        : cancelled
          ? 'client_closed'
          : null,
      createdAt: new Date(Date.UTC(2026, 2, 1 + (i % 20), (i * 5) % 24, i % 60)),
    });
  }
  await h.database.db.insert(generations).values(records);
});

describe('usage figures', () => {
  it('adds up to the records of the range, in total, per model and per row', async () => {
    const page = await usage({ from: '2026-03-01', to: '2026-03-31' });
    const records = await recordsOf('2026-03-01', '2026-03-31');
    expect(records).toHaveLength(120);
    expect(page.totals).toMatchObject({
      generations: 120,
      failed: records.filter((r) => r.outcome === 'failed').length,
      cancelled: records.filter((r) => r.outcome === 'cancelled').length,
      promptTokens: sum(records, (r) => r.promptTokens ?? 0),
      completionTokens: sum(records, (r) => r.completionTokens ?? 0),
      cost: null,
      unpricedTokens: sum(records, tokens),
    });
    expect(page.models.map((m) => m.model).sort()).toEqual(['', 'gpt-a', 'gpt-b']);
    for (const m of page.models) {
      const of = records.filter((r) => (r.model ?? '') === m.model);
      expect(m.generations, m.model).toBe(of.length);
      expect(m.priced).toBe(false);
    }
    // Days: each table row equals its records, and the drill-down lists exactly them.
    expect(page.rowCount).toBe(page.rows.length);
    expect(sum(page.rows, (r) => r.generations)).toBe(120);
    for (const row of page.rows.slice(0, 6)) {
      const of = records.filter(
        (r) =>
          r.userId === row.user.userId &&
          r.generator === row.tool &&
          r.createdAt!.toISOString().slice(0, 10) === row.periodStart,
      );
      expect(row.generations).toBe(of.length);
      expect(row.promptTokens).toBe(sum(of, (r) => r.promptTokens ?? 0));
      expect(row.completionTokens).toBe(sum(of, (r) => r.completionTokens ?? 0));
      expect(row.failed).toBe(of.filter((r) => r.outcome === 'failed').length);
      const listed = await drill({
        from: row.periodStart,
        to: row.periodEnd,
        userId: row.user.userId,
        tool: row.tool,
      });
      expect(listed.map((g) => g.id).sort()).toEqual(of.map((r) => r.id).sort());
      expect(listed.every((g) => g.user.email === row.user.email)).toBe(true);
    }
  });

  it('reads p50 and p95 as the upper bound of the latency bucket they fall in (within 10 %)', async () => {
    const page = await usage({ from: '2026-03-01', to: '2026-03-31' });
    const latencies = (await recordsOf('2026-03-01', '2026-03-31'))
      .map((r) => r.latencyMs)
      .sort((a, b) => a - b);
    const nearestRank = (q: number) => latencies[Math.ceil(q * latencies.length) - 1]!;
    for (const [ms, exact] of [
      [page.totals.p50Ms, nearestRank(0.5)],
      [page.totals.p95Ms, nearestRank(0.95)],
    ] as const) {
      expect(ms).not.toBeNull();
      expect(ms!).toBeGreaterThanOrEqual(exact - 1);
      expect(ms!).toBeLessThanOrEqual(Math.max(50, exact * 1.1) + 1);
    }
    expect(latencyOfBucket(0)).toBe(50);
    expect(latencyOfBucket(1)).toBe(55);
  });

  it('groups by ISO week, cut at the range’s ends, and filters by person and tool', async () => {
    const [ola] = people;
    const page = await usage({
      from: '2026-03-04',
      to: '2026-03-17',
      by: 'week',
      userId: ola!.userId,
      tool: 'article',
    });
    const records = (await recordsOf('2026-03-04', '2026-03-17')).filter(
      (r) => r.userId === ola!.userId && r.generator === 'article',
    );
    expect(page.totals.generations).toBe(records.length);
    // 2026-03-04 is a Wednesday: the first week is cut to start there; Monday 03-16's week ends at 03-17.
    const periods = [...new Set(page.rows.map((r) => `${r.periodStart}..${r.periodEnd}`))].sort();
    expect(periods).toEqual(['2026-03-04..2026-03-08', '2026-03-09..2026-03-15', '2026-03-16..2026-03-17']);
    expect(new Set(page.series.map((s) => s.period))).toEqual(
      new Set(['2026-03-04', '2026-03-09', '2026-03-16']),
    );
    expect(page.rows.every((r) => r.user.userId === ola!.userId && r.tool === 'article')).toBe(true);
    // The filters' choices still list everyone and every tool of the range.
    expect(page.people.map((p) => p.email)).toEqual(['jan@gem.example', 'ola@gem.example']);
    expect(page.tools).toEqual(['article', 'paid-ads']);
    const week = page.rows.find((r) => r.periodStart === '2026-03-09')!;
    const listed = await drill({
      from: week.periodStart,
      to: week.periodEnd,
      userId: ola!.userId,
      tool: 'article',
    });
    expect(listed).toHaveLength(week.generations);
    expect(sum(listed, (g) => g.promptTokens ?? 0)).toBe(week.promptTokens);
  });

  it('counts the weekly table’s rows and ranks the top users from whole and cut weeks alike', async () => {
    // Wednesday 03-04 to Friday 03-20: two cut weeks around a whole one (migration 0023's rollups).
    const mondayOf = (d: Date) => {
      const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    };
    const all = await recordsOf('2026-03-04', '2026-03-20');
    for (const tool of [undefined, 'paid-ads']) {
      const page = await usage({ from: '2026-03-04', to: '2026-03-20', by: 'week', tool });
      const records = all.filter((r) => tool === undefined || r.generator === tool);
      const rows = new Set(records.map((r) => `${mondayOf(r.createdAt!)} ${r.userId} ${r.generator}`));
      expect(page.rowCount, tool).toBe(rows.size);
      expect(page.rows, tool).toHaveLength(rows.size);
      expect(page.topUsers, tool).toHaveLength(2);
      for (const top of page.topUsers) {
        const of = records.filter((r) => r.userId === top.user.userId);
        expect(top, `${tool} ${top.user.email}`).toMatchObject({
          generations: of.length,
          failed: of.filter((r) => r.outcome === 'failed').length,
          cancelled: of.filter((r) => r.outcome === 'cancelled').length,
          promptTokens: sum(of, (r) => r.promptTokens ?? 0),
          completionTokens: sum(of, (r) => r.completionTokens ?? 0),
        });
      }
    }
    // With a person chosen, the choices are still everyone and every tool of the range.
    const one = await usage({ from: '2026-03-04', to: '2026-03-20', by: 'week', userId: people[0]!.userId });
    expect(one.people.map((p) => p.email)).toEqual(['jan@gem.example', 'ola@gem.example']);
    expect(one.tools).toEqual([...new Set(all.map((r) => r.generator))].sort());
    expect(one.rowCount).toBe(
      new Set(
        all
          .filter((r) => r.userId === people[0]!.userId)
          .map((r) => `${mondayOf(r.createdAt!)} ${r.generator}`),
      ).size,
    );
  });

  it('counts failures by cause, each traceable to its records', async () => {
    const page = await usage({ from: '2026-03-01', to: '2026-03-31' });
    const records = await recordsOf('2026-03-01', '2026-03-31');
    expect(page.failures.length).toBe(3);
    for (const f of page.failures) {
      const of = records.filter((r) => r.outcome === f.outcome && r.errorCode === f.errorCode);
      expect(f.generations, f.errorCode).toBe(of.length);
      const listed = await drill({
        from: '2026-03-01',
        to: '2026-03-31',
        outcome: f.outcome,
        errorCode: f.errorCode,
      });
      expect(listed.map((g) => g.id).sort()).toEqual(of.map((r) => r.id).sort());
    }
  });

  it('counts the generations made through the AI platform today', async () => {
    h.ai.enqueue({ kind: 'text', text: 'Krótki artykuł o GEM.' }, { kind: 'status', status: 500 });
    expect((await h.generate('article', 'ala')).statusCode).toBe(200);
    await h.generate('teaser-generator', 'ala');
    // Yesterday too, so a run across midnight (UTC) still finds its records.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const page = await usage({ from: yesterday, to: today });
    const records = await recordsOf(yesterday, today);
    expect(records.length).toBeGreaterThanOrEqual(2);
    expect(page.totals.generations).toBe(records.length);
    expect(page.totals.promptTokens).toBe(sum(records, (r) => r.promptTokens ?? 0));
    expect(page.topUsers[0]?.user.email).toBe('ala@gem.example');
    expect(page.models.map((m) => m.model)).toContain('gem-test-model');
    // Left out, the range is the last 30 days up to today.
    const fallback = await usage({});
    expect(fallback.to).toBe(today);
    expect(fallback.totals.generations).toBe(records.length);
  });
});

describe('prices and the estimated cost', () => {
  it('estimates cost as tokens / 1,000 × the current price, per model, and audits every change', async () => {
    const set = await h.main.inject({
      method: 'PUT',
      url: adminPaths.prices,
      headers: { authorization: admin },
      payload: { model: 'gpt-a', inputPer1k: 0.5, outputPer1k: 1.5 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      model: 'gpt-a',
      inputPer1k: 0.5,
      outputPer1k: 1.5,
      updatedBy: 'admin@example.com',
    });
    const page = await usage({ from: '2026-03-01', to: '2026-03-31' });
    const records = await recordsOf('2026-03-01', '2026-03-31');
    const priced = records.filter((r) => r.model === 'gpt-a');
    const expected = sum(
      priced,
      (r) => ((r.promptTokens ?? 0) * 0.5 + (r.completionTokens ?? 0) * 1.5) / 1000,
    );
    expect(page.totals.cost).toBeCloseTo(expected, 6);
    expect(page.totals.unpricedTokens).toBe(
      sum(
        records.filter((r) => r.model !== 'gpt-a'),
        tokens,
      ),
    );
    expect(page.models.find((m) => m.model === 'gpt-a')).toMatchObject({ priced: true });
    expect(page.models.find((m) => m.model === 'gpt-b')).toMatchObject({ priced: false, cost: null });
    const userCosts = page.topUsers.reduce((a, u) => a + (u.cost ?? 0), 0);
    expect(userCosts).toBeCloseTo(expected, 6);

    const csv = await get(adminPaths.usageCsv, { from: '2026-03-01', to: '2026-03-31', by: 'week' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('gem-usage-2026-03-01-to-2026-03-31-by-week.csv');
    // No cell of these rows holds a comma or a quote, so a split reads them.
    const [header, ...body] = csv.body
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const lines = body.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i] ?? ''])));
    expect(sum(lines, (l) => Number(l['Generations']))).toBe(120);
    expect(sum(lines, (l) => Number(l['Estimated cost'] || 0))).toBeCloseTo(expected, 2);

    const list = pricesResponseSchema.parse((await get(adminPaths.prices)).json());
    expect(list.prices.map((p) => p.model)).toEqual(['gpt-a']);
    const removed = await h.main.inject({
      method: 'DELETE',
      url: adminPaths.price.replace(':model', 'gpt-a'),
      headers: { authorization: admin },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await usage({ from: '2026-03-01', to: '2026-03-31' })).totals.cost).toBeNull();
    const again = await h.main.inject({
      method: 'DELETE',
      url: adminPaths.price.replace(':model', 'gpt-a'),
      headers: { authorization: admin },
    });
    expect(again.statusCode).toBe(404);

    const audit = await h.database.db.select().from(auditEvents).where(eq(auditEvents.target, 'gpt-a'));
    expect(audit.map((a) => a.action)).toEqual(['price.set', 'price.removed']);
    expect(audit[0]).toMatchObject({
      actorEmail: 'admin@example.com',
      ip: '127.0.0.1',
      details: { inputPer1k: 0.5, outputPer1k: 1.5, before: null },
    });
    expect(audit[1]?.details).toEqual({ before: { inputPer1k: 0.5, outputPer1k: 1.5 } });
  });
});

describe('the range in whole weeks and cut weeks', () => {
  it('reads whole ISO weeks from the weekly rollup and only the cut weeks’ days from the daily one', () => {
    // 2026-03-01 is a Sunday, 2026-03-02 a Monday, 2026-03-29 a Sunday.
    expect(weekCover('2026-03-02', '2026-03-29')).toEqual({ weeks: ['2026-03-02', '2026-03-23'], days: [] });
    expect(weekCover('2026-03-01', '2026-03-31')).toEqual({
      weeks: ['2026-03-02', '2026-03-23'],
      days: [
        ['2026-03-01', '2026-03-01'],
        ['2026-03-30', '2026-03-31'],
      ],
    });
    // No whole week inside: every day from the daily rollup.
    expect(weekCover('2026-03-04', '2026-03-10')).toEqual({
      weeks: null,
      days: [['2026-03-04', '2026-03-10']],
    });
    expect(weekCover('2026-03-04', '2026-03-04')).toEqual({
      weeks: null,
      days: [['2026-03-04', '2026-03-04']],
    });
  });
});

describe('bad input', () => {
  const issuesOf = (body: string) => errorResponseSchema.parse(JSON.parse(body)).error.issues ?? [];

  it('refuses a range that ends before it starts, or is longer than a year', async () => {
    const backwards = await get(adminPaths.usage, { from: '2026-03-10', to: '2026-03-01' });
    expect(backwards.statusCode).toBe(400);
    expect(issuesOf(backwards.body)).toContainEqual({
      path: 'querystring.to',
      message: USAGE_RANGE_ORDER_ERROR,
    });
    const long = await get(adminPaths.usageCsv, { from: '2024-01-01', to: '2026-03-01' });
    expect(long.statusCode).toBe(400);
    expect(issuesOf(long.body)).toContainEqual({
      path: 'querystring.from',
      message: USAGE_RANGE_LENGTH_ERROR,
    });
    const notADay = await get(adminPaths.usage, { from: '2026-13-01', to: '2026-03-01', by: 'month' });
    expect(notADay.statusCode).toBe(400);
    expect(issuesOf(notADay.body).map((i) => i.path)).toEqual(
      expect.arrayContaining(['querystring.from', 'querystring.by']),
    );
    const drillBackwards = await get(adminPaths.usageGenerations, { from: '2026-03-10', to: '2026-03-01' });
    expect(drillBackwards.statusCode).toBe(400);
  });

  it('refuses a price that is not a number, or is below 0', async () => {
    for (const [payload, field, message] of [
      [{ model: 'gpt-a', inputPer1k: 'abc', outputPer1k: 1 }, 'body.inputPer1k', PRICE_NUMBER_ERROR],
      [{ model: 'gpt-a', inputPer1k: 1, outputPer1k: '2' }, 'body.outputPer1k', PRICE_NUMBER_ERROR],
      [{ model: 'gpt-a', inputPer1k: -1, outputPer1k: 1 }, 'body.inputPer1k', 'A price cannot be below 0.'],
      [{ model: ' ', inputPer1k: 1, outputPer1k: 1 }, 'body.model', 'Name the model.'],
    ] as const) {
      const res = await h.main.inject({
        method: 'PUT',
        url: adminPaths.prices,
        headers: { authorization: admin },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(issuesOf(res.body)).toContainEqual({ path: field, message });
    }
  });

  it('answers 403 to someone who is not an administrator', async () => {
    const res = await h.main.inject({
      method: 'GET',
      url: adminPaths.usage,
      headers: { authorization: await h.bearer('ala') },
    });
    expect(res.statusCode).toBe(403);
  });
});
