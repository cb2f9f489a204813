import type { CompetitorStatus, WeeklyCount } from '@gem/contracts/competitor-search';

import { StackedBarChart } from '@/components/ui/stacked-bar-chart';
import { formatDate, formatMonthDay } from '@/lib/format-date';

import { competitorColours, weeklyChartData } from '../chart-data';
import { describeWindow, windowDays, type SearchWindow } from '../search-params';

type WeeklyChartProps = {
  counts: readonly WeeklyCount[];
  competitors: readonly CompetitorStatus[];
  window: SearchWindow;
};

/** A week's Monday as a local date, so the label is that day wherever the reader is. */
const localDay = (isoDay: string) => {
  const [y, m, d] = isoDay.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
};

/** Who published how many matching pages each week of the window. */
export function WeeklyChart({ counts, competitors, window }: WeeklyChartProps) {
  const { series, weeks } = weeklyChartData(counts, competitors, { windowDays: windowDays(window) });
  if (weeks.length === 0) return null;
  const colourOf = competitorColours(competitors);
  return (
    <StackedBarChart
      caption="Matching pages per week, by competitor"
      description={`Every page that matches in the last ${describeWindow(window)}, by the week it was published.`}
      categoryHeader="Week"
      categories={weeks.map((week) => ({
        key: week.weekStart,
        label: formatMonthDay(localDay(week.weekStart)) ?? week.weekStart,
        fullLabel: `Week of ${formatDate(localDay(week.weekStart).toISOString())}`,
        values: week.counts,
      }))}
      series={series.map((s) => ({ ...s, colour: colourOf(s.key) }))}
    />
  );
}
