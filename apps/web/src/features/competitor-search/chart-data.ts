import type { CompetitorStatus, WeeklyCount } from '@gem/contracts/competitor-search';

export type ChartSeries = { key: string; name: string };
export type ChartWeek = { weekStart: string; counts: Record<string, number>; total: number };
export type WeeklyChartData = { series: ChartSeries[]; weeks: ChartWeek[] };

const DAY_MS = 24 * 60 * 60 * 1000;
/** Up to this many weeks the chart shows the whole window, empty weeks too. */
const FILL_WINDOW_WEEKS = 27;

/** `YYYY-MM-DD` as a UTC day number (weeks are calendar days; no time zone shifts them). */
const dayOf = (isoDay: string): number => Date.parse(`${isoDay}T00:00:00Z`) / DAY_MS;
const isoDayOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The Monday of the week `day` is in. */
function mondayOf(day: number): number {
  const weekday = (new Date(day * DAY_MS).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return day - weekday;
}

/**
 * The weekly counts as one row per week and one series per competitor that published anything,
 * in the competitors' order. Every week of the window is shown, empty ones too, so the chart
 * says when nothing was published; a window longer than half a year shows the weeks between
 * the first and the last page found.
 */
export function weeklyChartData(
  counts: readonly WeeklyCount[],
  competitors: readonly Pick<CompetitorStatus, 'key' | 'name'>[],
  { windowDays, today = new Date() }: { windowDays: number; today?: Date },
): WeeklyChartData {
  const totals = new Map<string, number>();
  const byWeek = new Map<number, Record<string, number>>();
  for (const { weekStart, competitorKey, count } of counts) {
    const day = dayOf(weekStart);
    if (Number.isNaN(day) || count <= 0) continue;
    totals.set(competitorKey, (totals.get(competitorKey) ?? 0) + count);
    const week = byWeek.get(mondayOf(day)) ?? {};
    week[competitorKey] = (week[competitorKey] ?? 0) + count;
    byWeek.set(mondayOf(day), week);
  }
  if (byWeek.size === 0) return { series: [], weeks: [] };

  const known = competitors.filter((c) => totals.has(c.key)).map(({ key, name }) => ({ key, name }));
  const unknown = [...totals.keys()]
    .filter((key) => !competitors.some((c) => c.key === key))
    .map((key) => ({ key, name: key }));
  const series = [...known, ...unknown];

  const days = [...byWeek.keys()];
  let first = Math.min(...days);
  let last = Math.max(...days);
  if (windowDays <= FILL_WINDOW_WEEKS * 7) {
    const todayDay = Math.floor(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate()) / DAY_MS);
    first = Math.min(first, mondayOf(todayDay - windowDays + 1));
    last = Math.max(last, mondayOf(todayDay));
  }

  const weeks: ChartWeek[] = [];
  for (let day = first; day <= last; day += 7) {
    const week = byWeek.get(day) ?? {};
    const row: Record<string, number> = {};
    for (const { key } of series) row[key] = week[key] ?? 0;
    weeks.push({
      weekStart: isoDayOf(day),
      counts: row,
      total: Object.values(row).reduce((a, b) => a + b, 0),
    });
  }
  return { series, weeks };
}

/**
 * Competitor colours, each at least 3:1 against white (WCAG 1.4.11) and apart in hue and
 * lightness. A competitor keeps its colour for good, in the chart and on its result cards:
 * it comes from the competitor's place in the competitor list (GEM's configuration), never
 * from who happens to be in a search's results. GEM's own firm gets the brand colour; the
 * others take the palette in the list's order; a key the list does not know (a competitor
 * since removed, or the list not loaded) gets a palette colour from its key's letters.
 */
export const BRAND_SERIES_KEY = 'pwc';
export const brandColour = '#fd5108';
export const seriesPalette = ['#1f4e79', '#2e7d32', '#7b1fa2', '#00838f', '#8c6d00', '#c2185b', '#5e554f'];

export type CompetitorColours = (key: string) => string;

export function competitorColours(competitors: readonly Pick<CompetitorStatus, 'key'>[]): CompetitorColours {
  const colours = new Map<string, string>();
  let next = 0;
  for (const { key } of competitors) {
    if (colours.has(key)) continue;
    colours.set(
      key,
      key === BRAND_SERIES_KEY ? brandColour : (seriesPalette[next++ % seriesPalette.length] ?? brandColour),
    );
  }
  return (key) => colours.get(key) ?? unlistedColour(key);
}

/** The same palette colour for the same key, wherever it is asked. */
function unlistedColour(key: string): string {
  if (key === BRAND_SERIES_KEY) return brandColour;
  let hash = 0;
  for (const char of key) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return seriesPalette[hash % seriesPalette.length] ?? brandColour;
}
