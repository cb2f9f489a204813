import type { UsagePeriod } from '@gem/contracts/admin-usage';

import { presetRange, rangePresets, type RangePreset } from './usage-format';

/**
 * The usage page's filters in its address, so a reload, the back button and a shared link show
 * the same figures: `?range=7` (a preset, 30 days when absent) or `?from=…&to=…` (chosen days),
 * `by=week`, `user=<id>`, `tool=<slug>`. Defaults are left out.
 */
export type UsageSearch = {
  preset: RangePreset;
  range: { from: string; to: string };
  by: UsagePeriod;
  userId: string;
  tool: string;
};

const presetIds: readonly string[] = rangePresets.map((p) => p.id);

export function readUsageSearch(params: URLSearchParams, now: number = Date.now()): UsageSearch {
  const from = params.get('from');
  const to = params.get('to');
  const asked = params.get('range') ?? '30';
  const preset = rangePresets.find((p) => p.id === asked) ?? rangePresets[1];
  const custom = from !== null || to !== null;
  return {
    preset: custom ? 'custom' : preset.id,
    range: custom ? { from: from ?? '', to: to ?? '' } : presetRange(preset.days, now),
    by: params.get('by') === 'week' ? 'week' : 'day',
    userId: params.get('user') ?? '',
    tool: params.get('tool') ?? '',
  };
}

export function writeUsageSearch(search: UsageSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (search.preset === 'custom') {
    params.set('from', search.range.from);
    params.set('to', search.range.to);
  } else if (search.preset !== '30' && presetIds.includes(search.preset)) {
    params.set('range', search.preset);
  }
  if (search.by === 'week') params.set('by', 'week');
  if (search.userId) params.set('user', search.userId);
  if (search.tool) params.set('tool', search.tool);
  return params;
}
