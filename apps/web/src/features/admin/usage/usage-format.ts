import { addDays, USAGE_MAX_RANGE_DAYS } from '@gem/contracts/admin-usage';

import { formatInteger } from '@/lib/format-number';

/**
 * How the usage page writes its figures and ranges: pure, so the section and its tests share
 * them. Days are UTC, as the rollups count them.
 */

/** Today, YYYY-MM-DD (UTC). */
export const todayUtc = (now: number = Date.now()): string => new Date(now).toISOString().slice(0, 10);

export const rangePresets = [
  { id: '7', label: 'Last 7 days', days: 7 },
  { id: '30', label: 'Last 30 days', days: 30 },
  { id: '90', label: 'Last 90 days', days: 90 },
] as const;
export type RangePreset = (typeof rangePresets)[number]['id'] | 'custom';

/** The range of a preset, ending today (UTC). */
export function presetRange(days: number, now: number = Date.now()): { from: string; to: string } {
  const to = todayUtc(now);
  return { from: addDays(to, -(days - 1)), to };
}

/** What is wrong with a range before it is asked for, in the server's words; null when it is fine. */
export function rangeProblem(from: string, to: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to))
    return 'Give both days of the range.';
  if (to < from) return 'The range ends before it starts.';
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  if (days > USAGE_MAX_RANGE_DAYS) return `The range can be at most ${USAGE_MAX_RANGE_DAYS} days.`;
  return null;
}

/** An estimated cost in the prices' currency: 4 decimals under 10, else 2: 0.0123, 1,234.50. */
export function formatCost(value: number): string {
  const [whole = '0', fraction = ''] = value.toFixed(value < 10 ? 4 : 2).split('.');
  return `${formatInteger(Number(whole))}.${fraction}`;
}

/** A latency read from its bucket: '≈1.2 s', '≈850 ms'; '—' for none. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return '—';
  return ms >= 1000 ? `≈${(ms / 1000).toFixed(1)} s` : `≈${formatInteger(ms)} ms`;
}

/** A tool's slug as words: 'social-media-post' → 'Social media post'. */
export function toolLabel(slug: string): string {
  const words = slug.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How a failure is named on the chart: its cause, or how it ended when it has none. */
export function causeLabel(outcome: 'failed' | 'cancelled', errorCode: string): string {
  const cause = errorCode === '' ? 'no code' : errorCode;
  return outcome === 'cancelled' ? `Cancelled: ${cause}` : cause;
}

/** A UTC day as 'Mar 02' for a chart's axis, whatever the reader's time zone. */
export function shortDay(day: string): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const [, m = '1', d = '1'] = day.split('-');
  return `${months[Number(m) - 1] ?? ''} ${d}`;
}

/** A UTC day as 'Mar 2, 2026'. */
export function longDay(day: string): string {
  const [y = '', m = '1', d = '1'] = day.split('-');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${months[Number(m) - 1] ?? ''} ${Number(d)}, ${y}`;
}
