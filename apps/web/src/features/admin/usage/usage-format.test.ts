import { describe, expect, it } from 'vitest';

import {
  causeLabel,
  formatCost,
  formatLatency,
  presetRange,
  rangeProblem,
  shortDay,
  toolLabel,
} from './usage-format';

describe('usage page formats', () => {
  it('gives a preset range ending today (UTC), both days counted', () => {
    expect(presetRange(7, Date.UTC(2026, 10, 27, 23, 59))).toEqual({ from: '2026-11-21', to: '2026-11-27' });
    expect(presetRange(30, Date.UTC(2026, 2, 1))).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });

  it('says what is wrong with a range in the server’s words', () => {
    expect(rangeProblem('2026-03-10', '2026-03-01')).toBe('The range ends before it starts.');
    expect(rangeProblem('2025-01-01', '2026-03-01')).toBe('The range can be at most 366 days.');
    expect(rangeProblem('', '2026-03-01')).toBe('Give both days of the range.');
    expect(rangeProblem('2026-03-01', '2026-03-01')).toBeNull();
  });

  it('writes cost, latency, tools and causes', () => {
    expect(formatCost(0.01234)).toBe('0.0123');
    expect(formatCost(1234.5)).toBe('1,234.50');
    expect(formatLatency(null)).toBe('—');
    expect(formatLatency(850)).toBe('≈850 ms');
    expect(formatLatency(1210)).toBe('≈1.2 s');
    expect(toolLabel('social-media-post')).toBe('Social media post');
    expect(causeLabel('failed', 'ai_timeout')).toBe('ai_timeout');
    expect(causeLabel('cancelled', 'client_closed')).toBe('Cancelled: client_closed');
    expect(shortDay('2026-03-02')).toBe('Mar 02');
  });
});
