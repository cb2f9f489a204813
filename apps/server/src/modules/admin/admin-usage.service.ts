import type { AdminPerson } from '@gem/contracts/admin';
import {
  addDays,
  latencyOfBucket,
  quantileBucket,
  USAGE_GENERATIONS_PAGE,
  USAGE_TABLE_MAX_ROWS,
  USAGE_TOP_USERS,
  type ModelPrice,
  type PriceInput,
  type UsageGeneration,
  type UsageGenerationsResponse,
  type UsagePeriod,
  type UsageResponse,
  type UsageRow,
  weekStartOf,
} from '@gem/contracts/admin-usage';
import { stringify } from 'csv-stringify/sync';
import { eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import { modelPrices } from '../../db/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../../lib/audit';
import type { AdminDeps } from './admin.deps';

/**
 * The admin area's usage (issue 30): every figure is read from the rollups the database keeps as
 * each generation is recorded (migrations 0020, 0021 and 0023), never by scanning the records:
 * - the totals, series, models, failures and latency from the rollups without the person
 *   (`usage_tool_daily`, `usage_tool_latency_daily`: a few dozen rows a day), or, for one
 *   person, from theirs (`usage_daily`, `usage_latency_daily`, by their index);
 * - the people from whole weeks and only the range's cut weeks' days from `usage_daily`: the top
 *   users from `usage_person_model_weekly` (every tool together; `usage_person_weekly` when a
 *   tool is chosen), the filter's choices from `usage_person_tool_weekly`;
 * - the table a period at a time: how many rows each period has (by week: a count of
 *   `usage_person_tool_weekly`'s rows, one per table row), then the newest periods' rows only,
 *   each with p50/p95 from its own latency buckets; the CSV streams period after period.
 * Only the drill-down reads `generations`, a page at a time by index, to show which records a
 * figure is made of. The cost is an estimate: tokens / 1,000 × the model's current price.
 * Timings: bench/admin-usage.md.
 */

/** The usage page's question, as the route has checked it. */
export type UsageFilter = {
  from?: string;
  to?: string;
  by: UsagePeriod;
  userId?: string;
  tool?: string;
};

/** The drill-down's question, as the route has checked it. */
export type GenerationsFilter = {
  from: string;
  to: string;
  userId?: string;
  tool?: string;
  model?: string;
  outcome?: 'succeeded' | 'failed' | 'cancelled';
  errorCode?: string;
  before?: string;
};

/** Who changed a price, for the audit log. */
export type PriceActor = { userId: string; email: string | null; ip: string | null };

/** The range when none is given: the last 30 days, today (UTC) included. */
const DEFAULT_RANGE_DAYS = 30;
/** Table rows the CSV reads per statement (whole periods, so a few more). */
const CSV_BATCH_ROWS = 2000;

type Figures = {
  generations: number;
  failed: number;
  cancelled: number;
  promptTokens: number;
  completionTokens: number;
  cost: number | null;
  unpricedTokens: number;
};

/** The figures every sum below answers; float8 so both drivers answer numbers (bigint and numeric come back as strings). */
const costAndTokens = sql`
  sum(u.prompt_tokens)::float8 as "promptTokens",
  sum(u.completion_tokens)::float8 as "completionTokens",
  (sum(u.prompt_tokens * p.input_per_1k + u.completion_tokens * p.output_per_1k) / 1000)::float8 as "cost",
  coalesce(sum(u.prompt_tokens + u.completion_tokens) filter (where p.model is null), 0)::float8 as "unpricedTokens"`;

/** The figures of a person's rows `u` (personRows: failed and cancelled counted in columns). */
const personFigures = sql`
  sum(u.generations)::float8 as "generations",
  sum(u.failed)::float8 as "failed",
  sum(u.cancelled)::float8 as "cancelled",
  ${costAndTokens}`;

/** Counts and tokens of rollup rows `u` with an outcome each (usage_tool_daily, usage_daily); the cost is priced after. */
const outcomeCounts = sql`
  sum(u.generations)::float8 as "generations",
  coalesce(sum(u.generations) filter (where u.outcome = 'failed'), 0)::float8 as "failed",
  coalesce(sum(u.generations) filter (where u.outcome = 'cancelled'), 0)::float8 as "cancelled",
  sum(u.prompt_tokens)::float8 as "promptTokens",
  sum(u.completion_tokens)::float8 as "completionTokens"`;

/** Counts and tokens of a person's rows `u` (personRows); the cost is priced after. */
const personCounts = sql`
  sum(u.generations)::float8 as "generations",
  sum(u.failed)::float8 as "failed",
  sum(u.cancelled)::float8 as "cancelled",
  sum(u.prompt_tokens)::float8 as "promptTokens",
  sum(u.completion_tokens)::float8 as "completionTokens"`;

type Counts = Omit<Figures, 'cost' | 'unpricedTokens'>;

/** A model's counts with their estimated cost, at the model's price if it has one. */
function priced(c: Counts, price: ModelPrice | undefined): Figures {
  const tokens = c.promptTokens + c.completionTokens;
  return {
    generations: c.generations,
    failed: c.failed,
    cancelled: c.cancelled,
    promptTokens: c.promptTokens,
    completionTokens: c.completionTokens,
    cost: price ? (c.promptTokens * price.inputPer1k + c.completionTokens * price.outputPer1k) / 1000 : null,
    unpricedTokens: price ? 0 : tokens,
  };
}

/** A day's period: itself, or the Monday of its ISO week (date arithmetic, whatever the session's time zone). */
const periodOf = (by: UsagePeriod, day: SQL) => (by === 'week' ? sql`gem_week_of(${day})` : day);

const emptyFigures = (): Figures => ({
  generations: 0,
  failed: 0,
  cancelled: 0,
  promptTokens: 0,
  completionTokens: 0,
  cost: null,
  unpricedTokens: 0,
});

function addFigures(into: Figures, f: Figures): Figures {
  into.generations += f.generations;
  into.failed += f.failed;
  into.cancelled += f.cancelled;
  into.promptTokens += f.promptTokens;
  into.completionTokens += f.completionTokens;
  into.unpricedTokens += f.unpricedTokens;
  if (f.cost !== null) into.cost = (into.cost ?? 0) + f.cost;
  return into;
}

const figuresOf = (g: Figures): Figures => ({
  generations: g.generations,
  failed: g.failed,
  cancelled: g.cancelled,
  promptTokens: g.promptTokens,
  completionTokens: g.completionTokens,
  cost: g.cost,
  unpricedTokens: g.unpricedTokens,
});

const personOf = (r: { userId: string; email: string | null; name: string | null }): AdminPerson => ({
  userId: r.userId,
  email: r.email,
  name: r.name,
});

const msOf = (bucket: number | null) => (bucket === null ? null : latencyOfBucket(bucket));
const minDay = (a: string, b: string) => (a < b ? a : b);
const maxDay = (a: string, b: string) => (a > b ? a : b);

/**
 * A range of days as whole ISO weeks (`weeks`, their Mondays, or null) and the days before and
 * after them that only part of their week is in (`days`).
 */
export function weekCover(from: string, to: string) {
  const first = weekStartOf(from) === from ? from : addDays(weekStartOf(from), 7);
  const last = addDays(weekStartOf(to), 6) === to ? weekStartOf(to) : addDays(weekStartOf(to), -7);
  if (first > last) return { weeks: null, days: [[from, to]] as [string, string][] };
  const days: [string, string][] = [];
  if (from < first) days.push([from, addDays(first, -1)]);
  if (addDays(last, 6) < to) days.push([addDays(last, 7), to]);
  return { weeks: [first, last] as [string, string], days };
}

/** The people and tools filters as conditions on a rollup `alias`. */
function narrowed(alias: string, filter: { userId?: string; tool?: string }): SQL[] {
  const a = sql.raw(alias);
  const parts: SQL[] = [];
  if (filter.userId !== undefined) parts.push(sql`${a}.user_id = ${filter.userId}::uuid`);
  if (filter.tool !== undefined) parts.push(sql`${a}.tool = ${filter.tool}`);
  return parts;
}

const and = (parts: SQL[]) => sql.join(parts, sql` and `);

/**
 * A person's usage between two days as rows of (period, user_id, tool, model, generations,
 * failed, cancelled, prompt_tokens, completion_tokens): per day from usage_daily, or per week
 * from usage_person_weekly for whole weeks and usage_daily for the cut weeks' days.
 */
function personRows(
  by: UsagePeriod,
  from: string,
  to: string,
  filter: { userId?: string; tool?: string },
): SQL {
  const daily = (a: string, b: string) => sql`
    select ${periodOf(by, sql`d.day`)} as period, d.user_id, d.tool, d.model, d.generations,
      case when d.outcome = 'failed' then d.generations else 0 end as failed,
      case when d.outcome = 'cancelled' then d.generations else 0 end as cancelled,
      d.prompt_tokens, d.completion_tokens
    from usage_daily d
    where ${and([sql`d.day between ${a}::date and ${b}::date`, ...narrowed('d', filter)])}`;
  if (by === 'day') return daily(from, to);
  return weekly(
    from,
    to,
    daily,
    (a, b) => sql`
      select w.week as period, w.user_id, w.tool, w.model, w.generations, w.failed, w.cancelled,
        w.prompt_tokens, w.completion_tokens
      from usage_person_weekly w
      where ${and([sql`w.week between ${a}::date and ${b}::date`, ...narrowed('w', filter)])}`,
  );
}

/**
 * A range read per week: the cut weeks' days by `days` (from usage_daily), the whole weeks by
 * `weeks` (from a weekly rollup), one after the other (union all; no week is in both).
 */
function weekly(
  from: string,
  to: string,
  days: (a: string, b: string) => SQL,
  weeks: (first: string, last: string) => SQL,
): SQL {
  const cover = weekCover(from, to);
  const parts = cover.days.map(([a, b]) => days(a, b));
  if (cover.weeks) parts.push(weeks(cover.weeks[0], cover.weeks[1]));
  return sql.join(parts, sql` union all `);
}

/**
 * A person's usage per model between two days, every tool together, as rows of (user_id, model,
 * generations, failed, cancelled, prompt_tokens, completion_tokens): whole weeks from
 * usage_person_model_weekly (a third of usage_person_weekly's rows), the cut weeks' days from
 * usage_daily. For the top users when no tool is chosen.
 */
function personModelRows(from: string, to: string, filter: { userId?: string }): SQL {
  return weekly(
    from,
    to,
    (a, b) => sql`
      select d.user_id, d.model, d.generations,
        case when d.outcome = 'failed' then d.generations else 0 end as failed,
        case when d.outcome = 'cancelled' then d.generations else 0 end as cancelled,
        d.prompt_tokens, d.completion_tokens
      from usage_daily d
      where ${and([sql`d.day between ${a}::date and ${b}::date`, ...narrowed('d', filter)])}`,
    (a, b) => sql`
      select w.user_id, w.model, w.generations, w.failed, w.cancelled, w.prompt_tokens, w.completion_tokens
      from usage_person_model_weekly w
      where ${and([sql`w.week between ${a}::date and ${b}::date`, ...narrowed('w', filter)])}`,
  );
}

/**
 * Who used which tool between two days, per week, as rows of (period, user_id, tool), once each:
 * whole weeks from usage_person_tool_weekly (a row per row of the weekly table), the cut weeks'
 * days from usage_daily.
 */
function personToolWeeks(from: string, to: string, filter: { userId?: string; tool?: string }): SQL {
  return weekly(
    from,
    to,
    (a, b) => sql`
      select gem_week_of(d.day) as period, d.user_id, d.tool
      from usage_daily d
      where ${and([sql`d.day between ${a}::date and ${b}::date`, ...narrowed('d', filter)])}
      group by 1, 2, 3`,
    (a, b) => sql`
      select w.week as period, w.user_id, w.tool
      from usage_person_tool_weekly w
      where ${and([sql`w.week between ${a}::date and ${b}::date`, ...narrowed('w', filter)])}`,
  );
}

const CSV_HEADER = [
  'Period start',
  'Period end',
  'E-mail',
  'Name',
  'Tool',
  'Generations',
  'Failed',
  'Cancelled',
  'Tokens in',
  'Tokens out',
  'Estimated cost',
  'Tokens without a price',
  'p50 latency ms (≈)',
  'p95 latency ms (≈)',
];

/** A cell that starts with =, +, -, @ is not run as a formula when a spreadsheet opens it. */
const csvOf = (records: string[][]) =>
  stringify(records, { escape_formulas: true, record_delimiter: 'windows' });

const csvRecord = (r: UsageRow) => [
  r.periodStart,
  r.periodEnd,
  r.user.email ?? '',
  r.user.name ?? '',
  r.tool,
  String(r.generations),
  String(r.failed),
  String(r.cancelled),
  String(r.promptTokens),
  String(r.completionTokens),
  r.cost === null ? '' : r.cost.toFixed(4),
  String(r.unpricedTokens),
  r.p50Ms === null ? '' : String(r.p50Ms),
  r.p95Ms === null ? '' : String(r.p95Ms),
];

export function createAdminUsage({ db, now = Date.now }: AdminDeps) {
  /** The range asked for, or the last 30 days. */
  function rangeOf(filter: { from?: string; to?: string }) {
    const to = filter.to ?? new Date(now()).toISOString().slice(0, 10);
    const from = filter.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
    return { from, to };
  }

  /** The table's periods, newest first, with how many rows (people × tools) each has. */
  function periodCounts(filter: UsageFilter, from: string, to: string) {
    // Counted per period as dates; only the counts are named as text.
    const counted = (rows: SQL) => sql`select r.period, count(*) as n from (${rows}) r group by 1`;
    const counts =
      filter.by === 'week'
        ? weekly(
            from,
            to,
            (a, b) => counted(personToolWeeks(a, b, filter)),
            // One row per row of the table: a count of index entries.
            (a, b) => sql`select w.week as period, count(*) as n from usage_person_tool_weekly w
              where ${and([sql`w.week between ${a}::date and ${b}::date`, ...narrowed('w', filter)])}
              group by 1`,
          )
        : counted(
            sql`select u.period from (${personRows(filter.by, from, to, filter)}) u group by u.period, u.user_id, u.tool`,
          );
    return rowsOf<{ period: string; n: number }>(
      db,
      sql`select c.period::text as "period", c.n::int as "n" from (${counts}) c order by c.period desc`,
    );
  }

  /**
   * The table's rows of the periods from `first` to `last` (a period's first day), newest period
   * first, most tokens first; `limit` or all of them. Each with p50 and p95 from its latency
   * buckets (nearest rank, as quantileBucket in contracts): for a page, each row's own buckets by
   * index; for all of them (the CSV), the periods' buckets in one pass, ranked here.
   */
  async function tableRows(
    filter: UsageFilter,
    from: string,
    to: string,
    [first, last]: [string, string],
    limit: number | null,
  ): Promise<UsageRow[]> {
    const a = maxDay(from, first);
    const b = minDay(to, filter.by === 'week' ? addDays(last, 6) : last);
    const span = filter.by === 'week' ? 6 : 0;
    type Row = Figures & {
      period: string;
      userId: string;
      email: string | null;
      name: string | null;
      tool: string;
      p50: number | null;
      p95: number | null;
    };
    const grouped = sql`
      select u.period, u.user_id, u.tool, ${personFigures},
        sum(u.prompt_tokens + u.completion_tokens) as tokens
      from (${personRows(filter.by, a, b, filter)}) u left join model_prices p on p.model = u.model
      group by 1, 2, 3`;
    const columns = sql`page.period::text as "period", page.user_id as "userId", us.email as "email",
      us.display_name as "name", page.tool as "tool", page.generations as "generations",
      page.failed as "failed", page.cancelled as "cancelled", page."promptTokens",
      page."completionTokens", page.cost as "cost", page."unpricedTokens"`;
    let rows: Row[];
    if (limit !== null) {
      rows = await rowsOf<Row>(
        db,
        sql`with page as (
            ${grouped} order by 1 desc, tokens desc, 2, 3 limit ${limit}
          ), buckets as (
            -- Each row's own buckets, by the (user_id, tool, day) index.
            select page.period, page.user_id, page.tool, l.bucket,
              sum(l.n) over (partition by page.period, page.user_id, page.tool order by l.bucket) as seen,
              sum(l.n) over (partition by page.period, page.user_id, page.tool) as total
            from page cross join lateral (
              select l.bucket, sum(l.generations) as n from usage_latency_daily l
              where l.user_id = page.user_id and l.tool = page.tool
                and l.day between greatest(page.period, ${from}::date) and least(page.period + ${span}::int, ${to}::date)
              group by 1
            ) l
          ), pct as (
            select period, user_id, tool,
              min(bucket) filter (where seen >= greatest(1, ceil(0.5 * total))) as p50,
              min(bucket) filter (where seen >= greatest(1, ceil(0.95 * total))) as p95
            from buckets group by 1, 2, 3
          )
          select ${columns}, pct.p50::int as "p50", pct.p95::int as "p95"
          from page
          join users us on us.id = page.user_id
          left join pct on pct.period = page.period and pct.user_id = page.user_id and pct.tool = page.tool
          order by page.period desc, page.tokens desc, page.user_id, page.tool`,
      );
    } else {
      const period = periodOf(filter.by, sql`l.day`);
      const [all, buckets] = await Promise.all([
        rowsOf<Row>(
          db,
          sql`select ${columns}, null as "p50", null as "p95"
            from (${grouped}) page join users us on us.id = page.user_id
            order by page.period desc, page.tokens desc, page.user_id, page.tool`,
        ),
        rowsOf<{ key: string; bucket: number; n: number }>(
          db,
          sql`select ${period}::text || ' ' || l.user_id || ' ' || l.tool as "key", l.bucket::int as "bucket",
              sum(l.generations)::float8 as "n"
            from usage_latency_daily l
            where ${and([sql`l.day between ${a}::date and ${b}::date`, ...narrowed('l', filter)])}
            group by 1, 2`,
        ),
      ]);
      const byRow = new Map<string, Map<number, number>>();
      for (const { key, bucket, n } of buckets) {
        const counts = byRow.get(key) ?? new Map<number, number>();
        byRow.set(key, counts.set(bucket, n));
      }
      rows = all.map((r) => {
        const counts = byRow.get(`${r.period} ${r.userId} ${r.tool}`) ?? new Map<number, number>();
        return { ...r, p50: quantileBucket(counts, 0.5), p95: quantileBucket(counts, 0.95) };
      });
    }
    return rows.map((r) => ({
      periodStart: r.period < from ? from : r.period,
      periodEnd: filter.by === 'week' ? minDay(addDays(r.period, 6), to) : r.period,
      user: personOf(r),
      tool: r.tool,
      ...figuresOf(r),
      p50Ms: msOf(r.p50),
      p95Ms: msOf(r.p95),
    }));
  }

  /** The periods whose rows come first until `rows` of them, newest first: [oldest, newest] of them. */
  function newestPeriods(counts: { period: string; n: number }[], rows: number): [string, string] | null {
    if (counts.length === 0) return null;
    let seen = 0;
    let i = 0;
    while (i < counts.length - 1 && seen + counts[i]!.n < rows) seen += counts[i++]!.n;
    return [counts[i]!.period, counts[0]!.period];
  }

  /** The people's counts and tokens per model over the range (whole weeks, and the cut weeks' days), named. */
  function peopleOf(filter: UsageFilter, from: string, to: string) {
    return rowsOf<Counts & { userId: string; model: string; email: string | null; name: string | null }>(
      db,
      sql`select g.*, us.email as "email", us.display_name as "name"
        from (
          select u.user_id as "userId", u.model as "model", ${personCounts}
          from (${filter.tool === undefined ? personModelRows(from, to, filter) : personRows('week', from, to, filter)}) u
          group by 1, 2
        ) g join users us on us.id = g."userId"`,
    );
  }

  /**
   * The table's first rows and how many there are. The newest period's rows are read while its
   * periods are counted; only when it holds fewer than a page (or none) are more read after.
   */
  async function table(filter: UsageFilter, from: string, to: string) {
    const newest = filter.by === 'week' ? weekStartOf(to) : to;
    const [counts, guess] = await Promise.all([
      periodCounts(filter, from, to),
      tableRows(filter, from, to, [newest, newest], USAGE_TABLE_MAX_ROWS),
    ]);
    const periods = newestPeriods(counts, USAGE_TABLE_MAX_ROWS);
    const rows =
      periods === null
        ? []
        : periods[0] === newest && periods[1] === newest
          ? guess
          : await tableRows(filter, from, to, periods, USAGE_TABLE_MAX_ROWS);
    return { count: counts.reduce((a, c) => a + c.n, 0), rows };
  }

  /** Every model's price, by name. */
  function prices(): Promise<ModelPrice[]> {
    return rowsOf<ModelPrice>(
      db,
      sql`select p.model as "model", p.input_per_1k::float8 as "inputPer1k", p.output_per_1k::float8 as "outputPer1k",
          to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt",
          us.email as "updatedBy"
        from model_prices p left join users us on us.id = p.updated_by
        order by p.model`,
    );
  }

  return {
    /**
     * The usage page: totals, the three charts' data, the models, the table's first rows and the
     * filters' choices. In parallel: one pass over the range's rollup rows grouped three ways
     * (grouping sets: per model, per ending and cause, per period and tool), the latency buckets,
     * the people, and the table (its periods' counts, then the newest periods' rows); the filters'
     * choices only when a filter is on.
     */
    async usage(filter: UsageFilter): Promise<UsageResponse> {
      const { from, to } = rangeOf(filter);
      const days = sql`u.day between ${from}::date and ${to}::date`;
      const period = periodOf(filter.by, sql`u.day`);
      const filtered = filter.userId !== undefined || filter.tool !== undefined;
      const mine = filter.userId !== undefined;
      type Grouped = Counts & {
        set: 'model' | 'ending' | 'series';
        model: string | null;
        outcome: 'succeeded' | 'failed' | 'cancelled' | null;
        errorCode: string | null;
        period: string | null;
        tool: string | null;
      };
      const [grouped, latency, personModels, tableOf, seen, priceList] = await Promise.all([
        rowsOf<Grouped>(
          db,
          sql`select case when grouping(u.model) = 0 then 'model' when grouping(u.outcome) = 0 then 'ending'
                else 'series' end as "set",
              u.model as "model", u.outcome as "outcome", u.error_code as "errorCode",
              ${period}::text as "period", u.tool as "tool", ${outcomeCounts}
            from ${mine ? sql`usage_daily` : sql`usage_tool_daily`} u
            where ${and([days, ...narrowed('u', filter)])}
            group by grouping sets ((u.model), (u.outcome, u.error_code), (${period}, u.tool))`,
        ),
        rowsOf<{ bucket: number; n: number }>(
          db,
          mine
            ? sql`select u.bucket::int as "bucket", sum(u.generations)::float8 as "n"
                from usage_latency_daily u where ${and([days, ...narrowed('u', filter)])} group by 1`
            : sql`select u.bucket::int as "bucket", sum(u.generations)::float8 as "n"
                from usage_tool_latency_daily u where u.tool = ${filter.tool ?? ''} and ${days} group by 1`,
        ),
        peopleOf(filter, from, to),
        table(filter, from, to),
        // Who and which tools were there in the range at all, whatever is chosen: the filters' choices.
        filtered
          ? rowsOf<{ userId: string; tool: string; email: string | null; name: string | null }>(
              db,
              sql`select s.user_id as "userId", s.tool as "tool", us.email as "email", us.display_name as "name"
                from (select u.user_id, u.tool from (${personToolWeeks(from, to, {})}) u group by 1, 2) s
                join users us on us.id = s.user_id`,
            )
          : null,
        prices(),
      ]);
      const priceOf = new Map(priceList.map((p) => [p.model, p]));
      const of = (set: Grouped['set']) => grouped.filter((g) => g.set === set);
      const tokensOf = (g: Counts) => g.promptTokens + g.completionTokens;
      const models = of('model')
        .map((g) => ({
          model: g.model ?? '',
          priced: priceOf.has(g.model ?? ''),
          ...priced(g, priceOf.get(g.model ?? '')),
        }))
        .sort((a, b) => tokensOf(b) - tokensOf(a) || a.model.localeCompare(b.model));
      const perPerson = new Map<string, Figures>();
      const named = new Map<string, AdminPerson>();
      for (const m of personModels) {
        perPerson.set(
          m.userId,
          addFigures(perPerson.get(m.userId) ?? emptyFigures(), priced(m, priceOf.get(m.model))),
        );
        named.set(m.userId, personOf(m));
      }
      const ranked = [...perPerson].sort(
        ([ia, a], [ib, b]) => tokensOf(b) - tokensOf(a) || ia.localeCompare(ib),
      );
      const top = ranked.slice(0, USAGE_TOP_USERS);
      const byEmail = (a: AdminPerson, b: AdminPerson) =>
        (a.email ?? a.name ?? '').toLowerCase().localeCompare((b.email ?? b.name ?? '').toLowerCase()) ||
        a.userId.localeCompare(b.userId);
      const choices = seen
        ? {
            people: [...new Map(seen.map((s) => [s.userId, personOf(s)])).values()],
            tools: [...new Set(seen.map((s) => s.tool))],
          }
        : {
            people: ranked.map(([id]) => named.get(id)!),
            tools: [...new Set(of('series').map((g) => g.tool!))],
          };
      const totals = models.reduce(addFigures, emptyFigures());
      const counts = new Map(latency.map((l) => [l.bucket, l.n]));
      return {
        from,
        to,
        by: filter.by,
        totals: {
          ...totals,
          p50Ms: msOf(quantileBucket(counts, 0.5)),
          p95Ms: msOf(quantileBucket(counts, 0.95)),
        },
        series: of('series')
          .map((g) => ({
            period: g.period! < from ? from : g.period!,
            tool: g.tool!,
            generations: g.generations,
            tokens: tokensOf(g),
          }))
          .sort((a, b) => a.period.localeCompare(b.period) || a.tool.localeCompare(b.tool)),
        topUsers: top.map(([id, f]) => ({ user: named.get(id)!, ...f })),
        failures: of('ending')
          .filter((g) => g.outcome !== 'succeeded')
          .map((g) => ({
            outcome: g.outcome as 'failed' | 'cancelled',
            errorCode: g.errorCode ?? '',
            generations: g.generations,
          }))
          .sort((a, b) => b.generations - a.generations || a.outcome.localeCompare(b.outcome)),
        models,
        rows: tableOf.rows,
        rowCount: tableOf.count,
        people: choices.people.sort(byEmail),
        tools: choices.tools.sort(),
      };
    },

    /**
     * The usage table, every row, as a CSV file: its name at once, its lines as they are read, a
     * few periods at a time (whole periods, about CSV_BATCH_ROWS rows per statement).
     */
    usageCsv(filter: UsageFilter): { fileName: string; body: AsyncIterable<string> } {
      const { from, to } = rangeOf(filter);
      async function* lines() {
        const counts = await periodCounts(filter, from, to);
        yield csvOf([CSV_HEADER]);
        let i = 0;
        while (i < counts.length) {
          const newest = counts[i]!.period;
          let rows = counts[i++]!.n;
          while (i < counts.length && rows + counts[i]!.n <= CSV_BATCH_ROWS) rows += counts[i++]!.n;
          const batch = await tableRows(filter, from, to, [counts[i - 1]!.period, newest], null);
          yield csvOf(batch.map(csvRecord));
        }
      }
      return { fileName: `gem-usage-${from}-to-${to}-by-${filter.by}.csv`, body: lines() };
    },

    /**
     * The generation records a figure is made of, newest first, a page at a time (keyset on
     * created_at and id, read by the created_at index or the user and tool's index).
     */
    async generations(filter: GenerationsFilter): Promise<UsageGenerationsResponse> {
      const parts = [
        sql`g.created_at >= ${filter.from}::date::timestamp at time zone 'UTC'`,
        sql`g.created_at < (${filter.to}::date + 1)::timestamp at time zone 'UTC'`,
      ];
      if (filter.userId !== undefined) parts.push(sql`g.user_id = ${filter.userId}::uuid`);
      if (filter.tool !== undefined) parts.push(sql`g.generator = ${filter.tool}`);
      if (filter.model !== undefined) parts.push(sql`coalesce(g.model, '') = ${filter.model}`);
      if (filter.outcome !== undefined) parts.push(sql`g.outcome = ${filter.outcome}`);
      // A plain comparison where it can be, so the planner reads the column's statistics.
      if (filter.errorCode !== undefined)
        parts.push(
          filter.errorCode === ''
            ? sql`(g.error_code is null or g.error_code = '')`
            : sql`g.error_code = ${filter.errorCode}`,
        );
      if (filter.before !== undefined) {
        const [at, id] = filter.before.split('~') as [string, string];
        parts.push(sql`(g.created_at, g.id) < (${at}::timestamptz, ${id}::uuid)`);
      }
      const rows = await rowsOf<
        Omit<UsageGeneration, 'user'> & { userId: string; email: string | null; name: string | null }
      >(
        db,
        // In the order of generations_created_idx (created_at desc NULLS LAST; a plain desc means
        // nulls first, which that index cannot give, so every record of the range was read and
        // sorted), and the page cut before the people are joined: the reading stops at the page's end.
        sql`select g.id as "id",
            to_char(g.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt",
            g.user_id as "userId", us.email as "email", us.display_name as "name", g.generator as "tool",
            g.model as "model", g.prompt_tokens as "promptTokens", g.completion_tokens as "completionTokens",
            g.latency_ms as "latencyMs", g.outcome as "outcome", g.error_code as "errorCode"
          from (
            select * from generations g
            where ${sql.join(parts, sql` and `)}
            order by g.created_at desc nulls last, g.id desc
            limit ${USAGE_GENERATIONS_PAGE + 1}
          ) g join users us on us.id = g.user_id
          order by g.created_at desc, g.id desc`,
      );
      const page = rows.slice(0, USAGE_GENERATIONS_PAGE);
      const last = page.at(-1);
      return {
        items: page.map(({ userId, email, name, ...g }) => ({ ...g, user: { userId, email, name } })),
        next: rows.length > USAGE_GENERATIONS_PAGE && last ? `${last.createdAt}~${last.id}` : null,
      };
    },

    /** Every model's price, by name. */
    prices,

    /** Sets a model's price, and records who did, from where, and what it was before. */
    async setPrice(input: Required<PriceInput>, actor: PriceActor): Promise<ModelPrice> {
      await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ inputPer1k: modelPrices.inputPer1k, outputPer1k: modelPrices.outputPer1k })
          .from(modelPrices)
          .where(eq(modelPrices.model, input.model))
          .for('update');
        const values = {
          inputPer1k: String(input.inputPer1k),
          outputPer1k: String(input.outputPer1k),
          updatedBy: actor.userId,
          updatedAt: sql`now()`,
        };
        await tx
          .insert(modelPrices)
          .values({ model: input.model, ...values })
          .onConflictDoUpdate({ target: modelPrices.model, set: values });
        await recordAudit(tx, {
          action: 'price.set',
          actor: { userId: actor.userId, email: actor.email },
          target: input.model,
          details: {
            inputPer1k: input.inputPer1k,
            outputPer1k: input.outputPer1k,
            before: before
              ? { inputPer1k: Number(before.inputPer1k), outputPer1k: Number(before.outputPer1k) }
              : null,
          },
          ip: actor.ip,
        });
      });
      return (await prices()).find((p) => p.model === input.model)!;
    },

    /** Removes a model's price (its cost is no longer estimated); 404 when it had none. */
    async removePrice(model: string, actor: PriceActor): Promise<void> {
      await db.transaction(async (tx) => {
        const removed = await tx.delete(modelPrices).where(eq(modelPrices.model, model)).returning();
        const [before] = removed;
        if (!before) throw new AppError(404, 'not_found', 'That model has no price.');
        await recordAudit(tx, {
          action: 'price.removed',
          actor: { userId: actor.userId, email: actor.email },
          target: model,
          details: {
            before: { inputPer1k: Number(before.inputPer1k), outputPer1k: Number(before.outputPer1k) },
          },
          ip: actor.ip,
        });
      });
    },
  };
}

export type AdminUsage = ReturnType<typeof createAdminUsage>;
