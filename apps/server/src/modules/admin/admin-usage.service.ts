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
 * each generation is recorded (`usage_daily`, `usage_latency_daily`, migration 0020), never by
 * scanning the records, so a year of a busy GEM still answers in milliseconds (bench/admin-usage.md).
 * Only the drill-down reads `generations`, a page at a time by index, to show which records a
 * figure is made of. The cost is an estimate: tokens / 1,000 × the model's current price.
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

type Figures = {
  generations: number;
  failed: number;
  cancelled: number;
  promptTokens: number;
  completionTokens: number;
  cost: number | null;
  unpricedTokens: number;
};

/**
 * The figures of a group of rollup rows `u` joined to their model's price `p`. Every sum is cast
 * to float8 so both drivers answer numbers (bigint and numeric come back as strings).
 */
const figures = sql`
  sum(u.generations)::float8 as "generations",
  coalesce(sum(u.generations) filter (where u.outcome = 'failed'), 0)::float8 as "failed",
  coalesce(sum(u.generations) filter (where u.outcome = 'cancelled'), 0)::float8 as "cancelled",
  sum(u.prompt_tokens)::float8 as "promptTokens",
  sum(u.completion_tokens)::float8 as "completionTokens",
  (sum(u.prompt_tokens * p.input_per_1k + u.completion_tokens * p.output_per_1k) / 1000)::float8 as "cost",
  coalesce(sum(u.prompt_tokens + u.completion_tokens) filter (where p.model is null), 0)::float8 as "unpricedTokens"`;

/** The rollups with their model's price, if it has one. */
const usageWithPrices = sql`usage_daily u left join model_prices p on p.model = u.model`;

/** A day's period: itself, or the Monday of its ISO week (date arithmetic, whatever the session's time zone). */
const periodOf = (by: UsagePeriod, day: SQL) =>
  by === 'week' ? sql`(${day} - (extract(isodow from ${day})::int - 1))` : day;

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

const personOf = (r: { userId: string; email: string | null; name: string | null }): AdminPerson => ({
  userId: r.userId,
  email: r.email,
  name: r.name,
});

const msOf = (bucket: number | null) => (bucket === null ? null : latencyOfBucket(bucket));

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

export function createAdminUsage({ db, now = Date.now }: AdminDeps) {
  /** The range asked for, or the last 30 days. */
  function rangeOf(filter: { from?: string; to?: string }) {
    const to = filter.to ?? new Date(now()).toISOString().slice(0, 10);
    const from = filter.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
    return { from, to };
  }

  /** The rollup rows of the range and filters (alias `alias`). */
  function where(alias: string, from: string, to: string, filter: { userId?: string; tool?: string }) {
    const a = sql.raw(alias);
    const parts = [sql`${a}.day between ${from}::date and ${to}::date`];
    if (filter.userId !== undefined) parts.push(sql`${a}.user_id = ${filter.userId}::uuid`);
    if (filter.tool !== undefined) parts.push(sql`${a}.tool = ${filter.tool}`);
    return sql.join(parts, sql` and `);
  }

  /**
   * One row per period, person and tool with p50 and p95 from the latency buckets (nearest rank,
   * as quantileBucket in contracts), newest period first, most tokens first; `limit` or all.
   */
  async function tableRows(
    filter: UsageFilter,
    limit: number | null,
  ): Promise<{ rows: UsageRow[]; count: number }> {
    const { from, to } = rangeOf(filter);
    const period = periodOf(filter.by, sql`u.day`);
    const latencyPeriod = periodOf(filter.by, sql`l.day`);
    const rows = await rowsOf<
      Figures & {
        period: string;
        userId: string;
        email: string | null;
        name: string | null;
        tool: string;
        p50: number | null;
        p95: number | null;
        rowCount: number;
      }
    >(
      db,
      sql`with r as (
          select ${period} as period, u.user_id, u.tool, ${figures},
            sum(u.prompt_tokens + u.completion_tokens) as tokens
          from ${usageWithPrices}
          where ${where('u', from, to, filter)}
          group by 1, 2, 3
        ), page as (
          select r.*, count(*) over () as row_count from r
          order by r.period desc, r.tokens desc, r.user_id, r.tool
          ${limit === null ? sql`` : sql`limit ${limit}`}
        ), buckets as (
          select ${latencyPeriod} as period, l.user_id, l.tool, l.bucket, sum(l.generations) as n
          from usage_latency_daily l
          where ${where('l', from, to, filter)}
            and (${latencyPeriod}, l.user_id, l.tool) in (select period, user_id, tool from page)
          group by 1, 2, 3, 4
        ), ranked as (
          select period, user_id, tool, bucket,
            sum(n) over (partition by period, user_id, tool order by bucket) as seen,
            sum(n) over (partition by period, user_id, tool) as total
          from buckets
        ), pct as (
          select period, user_id, tool,
            min(bucket) filter (where seen >= greatest(1, ceil(0.5 * total))) as p50,
            min(bucket) filter (where seen >= greatest(1, ceil(0.95 * total))) as p95
          from ranked group by 1, 2, 3
        )
        select page.period::text as "period", page.user_id as "userId", us.email as "email",
          us.display_name as "name", page.tool as "tool", page.generations as "generations",
          page.failed as "failed", page.cancelled as "cancelled", page."promptTokens",
          page."completionTokens", page.cost as "cost", page."unpricedTokens",
          pct.p50::int as "p50", pct.p95::int as "p95", page.row_count::int as "rowCount"
        from page
        join users us on us.id = page.user_id
        left join pct on pct.period = page.period and pct.user_id = page.user_id and pct.tool = page.tool
        order by page.period desc, page.tokens desc, page.user_id, page.tool`,
    );
    return {
      count: rows[0]?.rowCount ?? 0,
      rows: rows.map((r) => ({
        periodStart: r.period < from ? from : r.period,
        periodEnd: filter.by === 'week' ? minDay(addDays(r.period, 6), to) : r.period,
        user: personOf(r),
        tool: r.tool,
        generations: r.generations,
        failed: r.failed,
        cancelled: r.cancelled,
        promptTokens: r.promptTokens,
        completionTokens: r.completionTokens,
        cost: r.cost,
        unpricedTokens: r.unpricedTokens,
        p50Ms: msOf(r.p50),
        p95Ms: msOf(r.p95),
      })),
    };
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
     * filters' choices. Three statements: one pass over the range's rollups grouped four ways at
     * once (grouping sets: per model, per person, per ending and cause, per period and tool), the
     * latency buckets, and the table; a fourth for the filters' choices only when a filter is on.
     */
    async usage(filter: UsageFilter): Promise<UsageResponse> {
      const { from, to } = rangeOf(filter);
      const inRange = where('u', from, to, filter);
      const period = periodOf(filter.by, sql`u.day`);
      const filtered = filter.userId !== undefined || filter.tool !== undefined;
      type Grouped = Figures & {
        set: 'model' | 'user' | 'ending' | 'series';
        model: string | null;
        userId: string | null;
        email: string | null;
        name: string | null;
        outcome: 'succeeded' | 'failed' | 'cancelled' | null;
        errorCode: string | null;
        period: string | null;
        tool: string | null;
        priced: boolean;
      };
      const [grouped, latency, table, seen] = await Promise.all([
        rowsOf<Grouped>(
          db,
          sql`select g.*, us.email as "email", us.display_name as "name"
            from (
              select case when grouping(u.model) = 0 then 'model' when grouping(u.user_id) = 0 then 'user'
                  when grouping(u.outcome) = 0 then 'ending' else 'series' end as "set",
                u.model as "model", u.user_id as "userId", u.outcome as "outcome", u.error_code as "errorCode",
                ${period}::text as "period", u.tool as "tool", bool_or(p.model is not null) as "priced", ${figures}
              from ${usageWithPrices} where ${inRange}
              group by grouping sets ((u.model), (u.user_id), (u.outcome, u.error_code), (${period}, u.tool))
            ) g left join users us on us.id = g."userId"`,
        ),
        rowsOf<{ bucket: number; n: number }>(
          db,
          sql`select l.bucket::int as "bucket", sum(l.generations)::float8 as "n"
            from usage_latency_daily l where ${where('l', from, to, filter)} group by 1`,
        ),
        tableRows(filter, USAGE_TABLE_MAX_ROWS),
        // Who and which tools were there in the range at all, whatever is chosen: the filters' choices.
        filtered
          ? rowsOf<{ userId: string; tool: string }>(
              db,
              sql`select u.user_id as "userId", u.tool as "tool" from usage_daily u
                where u.day between ${from}::date and ${to}::date group by 1, 2`,
            )
          : null,
      ]);
      const of = (set: Grouped['set']) => grouped.filter((g) => g.set === set);
      const figuresOf = (g: Grouped): Figures => ({
        generations: g.generations,
        failed: g.failed,
        cancelled: g.cancelled,
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        cost: g.cost,
        unpricedTokens: g.unpricedTokens,
      });
      const tokensOf = (g: Figures) => g.promptTokens + g.completionTokens;
      const models = of('model')
        .map((g) => ({ model: g.model ?? '', priced: g.priced, ...figuresOf(g) }))
        .sort((a, b) => tokensOf(b) - tokensOf(a) || a.model.localeCompare(b.model));
      const users = of('user').sort(
        (a, b) => tokensOf(b) - tokensOf(a) || a.userId!.localeCompare(b.userId!),
      );
      const byEmail = (a: AdminPerson, b: AdminPerson) =>
        (a.email ?? a.name ?? '').toLowerCase().localeCompare((b.email ?? b.name ?? '').toLowerCase()) ||
        a.userId.localeCompare(b.userId);
      const people = new Map(
        users.map((u) => [u.userId!, personOf({ userId: u.userId!, email: u.email, name: u.name })]),
      );
      let choices = { people: [...people.values()], tools: [...new Set(of('series').map((g) => g.tool!))] };
      if (seen) {
        const ids = [...new Set(seen.map((s) => s.userId))];
        const known = ids.filter((id) => people.has(id));
        const others = ids.filter((id) => !people.has(id));
        const found =
          others.length === 0
            ? []
            : await rowsOf<{ userId: string; email: string | null; name: string | null }>(
                db,
                sql`select id as "userId", email as "email", display_name as "name" from users
                  where id in (${sql.join(
                    others.map((id) => sql`${id}::uuid`),
                    sql`, `,
                  )})`,
              );
        choices = {
          people: [...known.map((id) => people.get(id)!), ...found.map(personOf)],
          tools: [...new Set(seen.map((s) => s.tool))],
        };
      }
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
        topUsers: users.slice(0, USAGE_TOP_USERS).map((u) => ({
          user: personOf({ userId: u.userId!, email: u.email, name: u.name }),
          ...figuresOf(u),
        })),
        failures: of('ending')
          .filter((g) => g.outcome !== 'succeeded')
          .map((g) => ({
            outcome: g.outcome as 'failed' | 'cancelled',
            errorCode: g.errorCode ?? '',
            generations: g.generations,
          }))
          .sort((a, b) => b.generations - a.generations || a.outcome.localeCompare(b.outcome)),
        models,
        rows: table.rows,
        rowCount: table.count,
        people: choices.people.sort(byEmail),
        tools: choices.tools.sort(),
      };
    },

    /** The usage table, every row, as a CSV file. */
    async usageCsv(filter: UsageFilter): Promise<{ fileName: string; body: string }> {
      const { from, to } = rangeOf(filter);
      const { rows } = await tableRows(filter, null);
      const body = stringify(
        [
          CSV_HEADER,
          ...rows.map((r) => [
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
          ]),
        ],
        // A cell that starts with =, +, -, @ is not run as a formula when a spreadsheet opens it.
        { escape_formulas: true, record_delimiter: 'windows' },
      );
      return { fileName: `gem-usage-${from}-to-${to}-by-${filter.by}.csv`, body };
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
      if (filter.errorCode !== undefined) parts.push(sql`coalesce(g.error_code, '') = ${filter.errorCode}`);
      if (filter.before !== undefined) {
        const [at, id] = filter.before.split('~') as [string, string];
        parts.push(sql`(g.created_at, g.id) < (${at}::timestamptz, ${id}::uuid)`);
      }
      const rows = await rowsOf<
        Omit<UsageGeneration, 'user'> & { userId: string; email: string | null; name: string | null }
      >(
        db,
        sql`select g.id as "id",
            to_char(g.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt",
            g.user_id as "userId", us.email as "email", us.display_name as "name", g.generator as "tool",
            g.model as "model", g.prompt_tokens as "promptTokens", g.completion_tokens as "completionTokens",
            g.latency_ms as "latencyMs", g.outcome as "outcome", g.error_code as "errorCode"
          from generations g join users us on us.id = g.user_id
          where ${sql.join(parts, sql` and `)}
          order by g.created_at desc, g.id desc
          limit ${USAGE_GENERATIONS_PAGE + 1}`,
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

const minDay = (a: string, b: string) => (a < b ? a : b);

export type AdminUsage = ReturnType<typeof createAdminUsage>;
