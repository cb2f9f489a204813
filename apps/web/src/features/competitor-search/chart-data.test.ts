import { describe, expect, it } from 'vitest';

import { brandColour, seriesColours, weeklyChartData } from './chart-data';

const competitors = [
  { key: 'deloitte', name: 'Deloitte' },
  { key: 'pwc', name: 'PwC' },
  { key: 'kpmg', name: 'KPMG' },
];
// A Wednesday; its week starts on Monday 2026-03-02.
const today = new Date(2026, 2, 4, 12);

describe('weeklyChartData', () => {
  it('gives every week of a short window, empty ones too, and only the competitors that published', () => {
    const { series, weeks } = weeklyChartData(
      [
        { weekStart: '2026-03-02', competitorKey: 'kpmg', count: 2 },
        { weekStart: '2026-02-16', competitorKey: 'deloitte', count: 1 },
        { weekStart: '2026-02-16', competitorKey: 'deloitte', count: 1 },
      ],
      competitors,
      { windowDays: 28, today },
    );
    expect(series).toEqual([
      { key: 'deloitte', name: 'Deloitte' },
      { key: 'kpmg', name: 'KPMG' },
    ]);
    expect(weeks).toEqual([
      { weekStart: '2026-02-02', counts: { deloitte: 0, kpmg: 0 }, total: 0 },
      { weekStart: '2026-02-09', counts: { deloitte: 0, kpmg: 0 }, total: 0 },
      { weekStart: '2026-02-16', counts: { deloitte: 2, kpmg: 0 }, total: 2 },
      { weekStart: '2026-02-23', counts: { deloitte: 0, kpmg: 0 }, total: 0 },
      { weekStart: '2026-03-02', counts: { deloitte: 0, kpmg: 2 }, total: 2 },
    ]);
  });

  it('shows a long window from the first week with a page to the last, and unknown competitors by key', () => {
    const { series, weeks } = weeklyChartData(
      [
        { weekStart: '2024-01-01', competitorKey: 'other', count: 1 },
        { weekStart: '2024-01-15', competitorKey: 'pwc', count: 4 },
      ],
      competitors,
      { windowDays: 3650, today },
    );
    expect(series).toEqual([
      { key: 'pwc', name: 'PwC' },
      { key: 'other', name: 'other' },
    ]);
    expect(weeks.map((w) => w.weekStart)).toEqual(['2024-01-01', '2024-01-08', '2024-01-15']);
  });

  it('has nothing to chart without counts', () => {
    expect(weeklyChartData([], competitors, { windowDays: 90, today })).toEqual({ series: [], weeks: [] });
  });
});

describe('seriesColours', () => {
  it("gives GEM's own firm the brand colour, or the first series when it is absent, and distinct colours", () => {
    const all = seriesColours(competitors);
    expect(all.get('pwc')).toBe(brandColour);
    expect(new Set(all.values()).size).toBe(3);
    expect(seriesColours([{ key: 'kpmg', name: 'KPMG' }]).get('kpmg')).toBe(brandColour);
  });

  it('keeps every colour at 3:1 or more against white', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const many = Array.from({ length: 8 }, (_, i) => ({ key: `k${i}`, name: `K${i}` }));
    for (const colour of seriesColours(many).values()) {
      expect(1.05 / (luminance(colour) + 0.05), colour).toBeGreaterThanOrEqual(3);
    }
  });
});
