import { addDays, weekStartOf, type UsageResponse } from '@gem/contracts/admin-usage';

import { HorizontalBarChart } from '@/components/ui/horizontal-bar-chart';
import { StackedBarChart } from '@/components/ui/stacked-bar-chart';
import { formatInteger } from '@/lib/format-number';

import { causeLabel, formatCost, longDay, shortDay, toolLabel } from './usage-format';
import styles from './usage-section.module.css';

/** Each at least 3:1 against white, apart in hue (the competitor chart's palette), the brand first. */
const palette = ['#fd5108', '#1f4e79', '#2e7d32', '#7b1fa2', '#00838f', '#8c6d00', '#c2185b', '#5e554f'];
const colourOf = (i: number) => palette[i % palette.length]!;

/**
 * Every period of the range, those without generations too, so the time axis is the range's: each
 * day, or each week's Monday (the first week from the range's first day, as the server keys it).
 */
function periodsOf({ from, to, by }: Pick<UsageResponse, 'from' | 'to' | 'by'>): string[] {
  const periods: string[] = [];
  for (
    let day = by === 'week' ? weekStartOf(from) : from;
    day <= to;
    day = addDays(day, by === 'week' ? 7 : 1)
  ) {
    periods.push(day < from ? from : day);
  }
  return periods;
}

/**
 * A figure per period of the range, stacked by tool: the chart of generations and the brand voice's
 * chart of findings. Every tool in every period, 0 where it had none (a missing key would draw as
 * a full bar).
 */
export function ToolsOverTime({
  data,
  series,
  caption,
}: {
  data: Pick<UsageResponse, 'from' | 'to' | 'by'>;
  series: readonly { period: string; tool: string; value: number }[];
  caption: string;
}) {
  const tools = [...new Set(series.map((s) => s.tool))].sort();
  const byPeriod = new Map<string, Record<string, number>>();
  for (const s of series) byPeriod.set(s.period, { ...byPeriod.get(s.period), [s.tool]: s.value });
  const week = data.by === 'week';
  return (
    <StackedBarChart
      caption={`${caption} per ${week ? 'week' : 'day'}, by tool`}
      description={`${longDay(data.from)} to ${longDay(data.to)} (UTC).`}
      categoryHeader={week ? 'Week from' : 'Day'}
      categories={periodsOf(data).map((p) => ({
        key: p,
        label: shortDay(p),
        fullLabel: week ? `Week from ${longDay(p)}` : longDay(p),
        values: Object.fromEntries(tools.map((t) => [t, byPeriod.get(p)?.[t] ?? 0])),
      }))}
      series={tools.map((t, i) => ({ key: t, name: toolLabel(t), colour: colourOf(i) }))}
    />
  );
}

/** Generations over time stacked by tool, the top users by tokens, and failures by cause. */
export function UsageCharts({ data }: { data: UsageResponse }) {
  return (
    <div className={styles.charts}>
      <div className={styles.chartWide}>
        {data.series.length === 0 ? null : (
          <ToolsOverTime
            data={data}
            caption="Generations"
            series={data.series.map((s) => ({ period: s.period, tool: s.tool, value: s.generations }))}
          />
        )}
      </div>
      <div className={styles.chartCard}>
        {data.topUsers.length === 0 ? null : (
          <HorizontalBarChart
            caption="Top users by tokens"
            description="Tokens in and out; the estimated cost where their models are priced."
            categoryHeader="Person"
            categories={data.topUsers.map((u) => ({
              key: u.user.userId,
              label: u.user.email ?? u.user.name ?? u.user.userId,
              fullLabel: u.user.email ?? u.user.name ?? u.user.userId,
              values: { in: u.promptTokens, out: u.completionTokens },
            }))}
            series={[
              { key: 'in', name: 'Tokens in', colour: '#1f4e79' },
              { key: 'out', name: 'Tokens out', colour: '#fd5108' },
            ]}
            valueLabel={(c) => {
              const total = (c.values['in'] ?? 0) + (c.values['out'] ?? 0);
              const cost = data.topUsers.find((u) => u.user.userId === c.key)?.cost ?? null;
              return cost === null ? formatInteger(total) : `${formatInteger(total)} · ${formatCost(cost)}`;
            }}
          />
        )}
      </div>
      <div className={styles.chartCard}>
        {data.failures.length === 0 ? (
          <p className={styles.muted}>No failed or cancelled generations in this range.</p>
        ) : (
          <HorizontalBarChart
            caption="Failures by cause"
            description="Generations that failed, by the error code they ended with; cancelled ones apart."
            categoryHeader="Cause"
            categories={data.failures.map((f) => ({
              key: `${f.outcome}:${f.errorCode}`,
              label: causeLabel(f.outcome, f.errorCode),
              fullLabel: causeLabel(f.outcome, f.errorCode),
              values: { [f.outcome]: f.generations },
            }))}
            series={[
              { key: 'failed', name: 'Failed', colour: '#8f2f00' },
              { key: 'cancelled', name: 'Cancelled', colour: '#5e554f' },
            ]}
          />
        )}
      </div>
    </div>
  );
}
