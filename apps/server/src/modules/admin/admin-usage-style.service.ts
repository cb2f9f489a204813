import { styleRuleIds, type StyleRule } from '@gem/contracts/brand-voice';
import { addDays, type UsageQuery, type UsageStyleResponse } from '@gem/contracts/admin-usage';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import type { AdminDeps } from './admin.deps';

/**
 * The usage page's brand voice part (issue 31): what the style check found in each period's
 * generations of each tool, read from `style_daily` (a row per day and tool, kept by a trigger as
 * each generation is recorded, migration 0022). A year is at most 366 × the tools' rows.
 */

const DEFAULT_RANGE_DAYS = 30;

/** The rollup's column of each rule. */
const columnOf: Record<StyleRule, string> = {
  banned: 'banned',
  preferred: 'preferred',
  name: 'name',
  disclaimer: 'disclaimer',
  limit: '"limit"',
  quotes: 'quotes',
  'all-caps': 'all_caps',
  exclamation: 'exclamation',
};

type Row = { period: string; tool: string; checked: number; score_sum: number } & Record<string, number>;
type Figures = UsageStyleResponse['totals'];

const empty = (): Figures => ({
  checked: 0,
  findings: 0,
  counts: Object.fromEntries(styleRuleIds.map((rule) => [rule, 0])) as Figures['counts'],
  scoreAverage: null,
});

/** Sums of checked generations, findings and scores; the average from the sum. */
function add(into: Figures & { scoreSum?: number }, row: Row) {
  into.checked += Number(row.checked);
  into.scoreSum = (into.scoreSum ?? 0) + Number(row.score_sum);
  for (const rule of styleRuleIds) {
    const n = Number(row[rule]);
    into.counts[rule] += n;
    into.findings += n;
  }
  into.scoreAverage = into.checked === 0 ? null : Math.round((into.scoreSum / into.checked) * 10) / 10;
}

const figuresOf = ({ scoreSum: _sum, ...figures }: Figures & { scoreSum?: number }): Figures => figures;

export function createAdminUsageStyle({ db, now = Date.now }: Pick<AdminDeps, 'db' | 'now'>) {
  return {
    async style(query: UsageQuery & { by: 'day' | 'week' }): Promise<UsageStyleResponse> {
      const to = query.to ?? new Date(now()).toISOString().slice(0, 10);
      const from = query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
      const period =
        query.by === 'week' ? sql`greatest(date_trunc('week', day)::date, ${from}::date)` : sql`day`;
      const sums = sql.join(
        styleRuleIds.map((rule) => sql.raw(`sum(${columnOf[rule]})::int as "${rule}"`)),
        sql`, `,
      );
      const rows = await rowsOf<Row>(
        db,
        sql`select to_char(${period}, 'YYYY-MM-DD') as period, tool, sum(checked)::int as checked,
              sum(score_sum)::bigint as score_sum, ${sums}
            from style_daily
            where day between ${from}::date and ${to}::date
              ${query.tool ? sql`and tool = ${query.tool}` : sql``}
            group by 1, 2
            order by 1, 2`,
      );
      const totals: Figures & { scoreSum?: number } = empty();
      const tools = new Map<string, Figures & { scoreSum?: number }>();
      const series = rows.map((row) => {
        add(totals, row);
        const tool = tools.get(row.tool) ?? empty();
        add(tool, row);
        tools.set(row.tool, tool);
        const one: Figures & { scoreSum?: number } = empty();
        add(one, row);
        return { period: row.period, tool: row.tool, ...figuresOf(one) };
      });
      return {
        from,
        to,
        by: query.by,
        totals: figuresOf(totals),
        series,
        tools: [...tools]
          .map(([tool, figures]) => ({ tool, ...figuresOf(figures) }))
          .sort((a, b) => b.findings - a.findings || a.tool.localeCompare(b.tool)),
      };
    },
  };
}

export type AdminUsageStyle = ReturnType<typeof createAdminUsageStyle>;
