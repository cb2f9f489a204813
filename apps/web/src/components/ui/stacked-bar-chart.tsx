import { AxisBottom, AxisLeft, type TickRendererProps } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { BarStack } from '@visx/shape';
import type { ReactNode } from 'react';

import { formatInteger } from '@/lib/format-number';

import { categoryTotal, ChartFigure, StackParts, type ChartCategory, type ChartSeries } from './chart-parts';
import styles from './stacked-bar-chart.module.css';

export type { ChartCategory, ChartSeries } from './chart-parts';

type StackedBarChartProps = {
  /** Shown above the chart and read as the table's caption. */
  caption: string;
  /** A line under the caption. */
  description?: ReactNode;
  /** The first column's header in the table ('Week'). */
  categoryHeader: string;
  categories: readonly ChartCategory[];
  series: readonly ChartSeries[];
};

const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 40, left: 36 };
/** Until the chart knows its width (no layout yet, or no ResizeObserver). */
const FALLBACK_WIDTH = 640;

type Row = { key: string; label: string } & Record<string, number | string>;

/**
 * Bars stacked by series, one per category, drawn as SVG at the width it is given (so the text
 * stays legible on a phone), with a legend and, for screen readers, the same numbers as a
 * table. Each series' colour should keep 3:1 against white; a thin white gap between stacked
 * parts keeps neighbours apart.
 */
export function StackedBarChart({ categories, series, ...labels }: StackedBarChartProps) {
  return (
    <ChartFigure {...labels} categories={categories} series={series} fallbackWidth={FALLBACK_WIDTH}>
      {(width) => <Columns width={width} categories={categories} series={series} />}
    </ChartFigure>
  );
}

type DrawingProps = { width: number; categories: readonly ChartCategory[]; series: readonly ChartSeries[] };

/** The columns, their grid lines and their axes at the given width. */
function Columns({ width, categories, series }: DrawingProps) {
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;

  const rows: Row[] = categories.map((c) => ({ ...c.values, key: c.key, label: c.label }));
  const keys = series.map((s) => s.key);
  const totals = categories.map((c) => categoryTotal(c, series));
  const max = Math.max(1, ...totals);

  const xScale = scaleBand<string>({
    domain: categories.map((c) => c.key),
    range: [0, innerWidth],
    padding: categories.length > 20 ? 0.15 : 0.3,
  });
  const yScale = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const colours = new Map(series.map((s) => [s.key, s.colour]));
  const labels = new Map(categories.map((c) => [c.key, c.label]));
  // About one label per 56 px, so they never overlap.
  const every = Math.max(1, Math.ceil(categories.length / Math.max(1, Math.floor(innerWidth / 56))));
  const xTicks = categories.filter((_, i) => i % every === 0).map((c) => c.key);
  const yTicks = yScale.ticks(Math.min(4, max)).filter((t) => Number.isInteger(t));

  return (
    <svg width={width} height={HEIGHT} className={styles.chart} aria-hidden="true" focusable="false">
      <Group left={MARGIN.left} top={MARGIN.top}>
        {yTicks.map((tick) => (
          <line
            key={tick}
            className={styles.grid}
            x1={0}
            x2={innerWidth}
            y1={yScale(tick)}
            y2={yScale(tick)}
          />
        ))}
        <BarStack<Row, string>
          data={rows}
          keys={keys}
          x={(row) => row.key}
          xScale={xScale}
          yScale={yScale}
          color={(key) => colours.get(key) ?? '#5e554f'}
        >
          {(stacks) => <StackParts stacks={stacks} />}
        </BarStack>
        <AxisLeft
          scale={yScale}
          tickValues={yTicks}
          tickFormat={(value) => formatInteger(Number(value))}
          hideAxisLine
          hideTicks
          tickComponent={TickLabel}
          tickLabelProps={{ textAnchor: 'end', dx: -6, dy: '0.32em' }}
        />
        <AxisBottom
          top={innerHeight}
          scale={xScale}
          tickValues={xTicks}
          tickFormat={(key) => labels.get(key) ?? key}
          stroke="#cfc4b9"
          tickStroke="#cfc4b9"
          tickComponent={TickLabel}
          tickLabelProps={{ textAnchor: 'middle', dy: '0.9em' }}
        />
      </Group>
    </svg>
  );
}

/** A plain SVG label (visx's own measures every word in the page, which a tick does not need). */
function TickLabel({ x, y, formattedValue, textAnchor, dx, dy }: TickRendererProps) {
  return (
    <text x={x} y={y} dx={dx} dy={dy} textAnchor={textAnchor} className={styles.tick}>
      {formattedValue}
    </text>
  );
}
