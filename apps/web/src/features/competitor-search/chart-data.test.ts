import { describe, expect, it } from 'vitest';

import { brandColour, competitorColours, seriesPalette, weeklyChartData } from './chart-data';

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

describe('competitorColours', () => {
  // The bundled list, in its order.
  const catalogue = ['deloitte', 'ey', 'pwc', 'strategyand', 'mckinsey', 'kpmg'].map((key) => ({ key }));

  it('gives a competitor the same colour in every search, whoever else is in the results and in any order', () => {
    const colourOf = competitorColours(catalogue);
    // Two searches with different firms, in different orders (the chart's series).
    const audyt = weeklyChartData(
      [
        { weekStart: '2026-03-02', competitorKey: 'kpmg', count: 1 },
        { weekStart: '2026-03-02', competitorKey: 'ey', count: 2 },
      ],
      catalogue.map(({ key }) => ({ key, name: key })),
      { windowDays: 28, today },
    ).series.map((s) => [s.key, colourOf(s.key)]);
    const raport = weeklyChartData(
      [
        { weekStart: '2026-03-02', competitorKey: 'deloitte', count: 1 },
        { weekStart: '2026-02-23', competitorKey: 'ey', count: 1 },
      ],
      [...catalogue].reverse().map(({ key }) => ({ key, name: key })),
      { windowDays: 28, today },
    ).series.map((s) => [s.key, colourOf(s.key)]);
    expect(Object.fromEntries(audyt).ey).toBe(Object.fromEntries(raport).ey);
    // And the list's own order decides, not the results': a new list object, the same colours.
    const again = competitorColours(catalogue.map((c) => ({ ...c })));
    for (const { key } of catalogue) expect(again(key)).toBe(colourOf(key));
  });

  it("gives GEM's own firm the brand colour and every other competitor a colour of its own", () => {
    const colourOf = competitorColours(catalogue);
    expect(colourOf('pwc')).toBe(brandColour);
    const others = catalogue.filter((c) => c.key !== 'pwc').map((c) => colourOf(c.key));
    expect(new Set(others).size).toBe(others.length);
    expect(others).not.toContain(brandColour);
    // Without GEM's own firm in the list, only its key would wear the brand colour.
    const without = competitorColours(catalogue.filter((c) => c.key !== 'pwc'));
    expect(catalogue.map((c) => without(c.key)).filter((c) => c === brandColour)).toEqual([brandColour]);
    expect(without('deloitte')).toBe(seriesPalette[0]);
  });

  it('gives a key the list does not know the same colour every time, whatever the list', () => {
    const first = competitorColours(catalogue)('bcg');
    expect(competitorColours([])('bcg')).toBe(first);
    expect(competitorColours([{ key: 'kpmg' }])('bcg')).toBe(first);
    expect(seriesPalette).toContain(first);
  });

  it('keeps every colour at 3:1 or more against white', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    for (const colour of [brandColour, ...seriesPalette]) {
      expect(1.05 / (luminance(colour) + 0.05), colour).toBeGreaterThanOrEqual(3);
    }
  });
});
