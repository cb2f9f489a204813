import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { BarStackHorizontal } from '@visx/shape';
import type { ReactNode } from 'react';

import { formatInteger } from '@/lib/format-number';

import { categoryTotal, ChartFigure, StackParts, type ChartCategory, type ChartSeries } from './chart-parts';
import styles from './stacked-bar-chart.module.css';

type HorizontalBarChartProps = {
  /** Shown above the chart and read as the table's caption. */
  caption: string;
  /** A line under the caption. */
  description?: ReactNode;
  /** The first column's header in the table ('Sub-industry'). */
  categoryHeader: string;
  categories: readonly ChartCategory[];
  series: readonly ChartSeries[];
  /** The text at the end of a bar's label line; the total unless told. */
  valueLabel?: (category: ChartCategory) => string;
};

/** A row: the label line, then the bar under it. */
const LABEL_HEIGHT = 18;
const BAR_HEIGHT = 14;
const ROW_GAP = 12;
const ROW_HEIGHT = LABEL_HEIGHT + BAR_HEIGHT + ROW_GAP;
/** Until the chart knows its width (no layout yet, or no ResizeObserver). */
const FALLBACK_WIDTH = 480;
/** About how wide one character of a label is, to cut a long label before it runs into the value. */
const CHARACTER_WIDTH = 7;

type Row = { key: string } & Record<string, number | string>;

/** A label that fits `room` pixels, cut with an ellipsis (the table has it whole). */
function fit(label: string, room: number): string {
  const max = Math.max(4, Math.floor(room / CHARACTER_WIDTH));
  return label.length > max ? `${cutAtGrapheme(label, max - 1).trimEnd()}…` : label;
}

/**
 * Bars stacked by series, one row per category, each row's label above its bar so long labels
 * (job titles, industries) keep the full width on a phone. Drawn as SVG at the width it is
 * given, with a legend and, for screen readers, the same numbers as a table. Each series'
 * colour should keep 3:1 against white; a thin white gap keeps stacked parts apart.
 */
export function HorizontalBarChart({
  categories,
  series,
  valueLabel = (category) => formatInteger(categoryTotal(category, series)),
  ...labels
}: HorizontalBarChartProps) {
  return (
    <ChartFigure
      {...labels}
      categories={categories}
      series={series}
      fallbackWidth={FALLBACK_WIDTH}
      frameClassName={styles.rowsFrame}
    >
      {(width) => <Rows width={width} categories={categories} series={series} valueLabel={valueLabel} />}
    </ChartFigure>
  );
}

type RowsProps = {
  width: number;
  categories: readonly ChartCategory[];
  series: readonly ChartSeries[];
  valueLabel: (category: ChartCategory) => string;
};

/** The rows at the given width: each a label line with its value, then the stacked bar on a track. */
function Rows({ width, categories, series, valueLabel }: RowsProps) {
  const height = categories.length * ROW_HEIGHT - ROW_GAP;
  const innerWidth = Math.max(0, width);

  const rows: Row[] = categories.map((c) => ({ ...c.values, key: c.key }));
  const keys = series.map((s) => s.key);
  const max = Math.max(1, ...categories.map((c) => categoryTotal(c, series)));
  const xScale = scaleLinear<number>({ domain: [0, max], range: [0, innerWidth] });
  const yScale = scaleBand<string>({
    domain: categories.map((c) => c.key),
    range: [0, categories.length * ROW_HEIGHT],
    padding: 0,
  });
  const colours = new Map(series.map((s) => [s.key, s.colour]));

  return (
    <svg width={width} height={height} className={styles.chart} aria-hidden="true" focusable="false">
      <Group>
        {categories.map((c) => {
          const top = yScale(c.key) ?? 0;
          const value = valueLabel(c);
          return (
            <g key={c.key}>
              <rect
                className={styles.track}
                x={0}
                y={top + LABEL_HEIGHT}
                width={innerWidth}
                height={BAR_HEIGHT}
                rx={3}
              />
              <text x={0} y={top + 13} className={styles.rowLabel}>
                {fit(c.label, innerWidth - value.length * CHARACTER_WIDTH - 12)}
              </text>
              <text x={innerWidth} y={top + 13} textAnchor="end" className={styles.tick}>
                {value}
              </text>
            </g>
          );
        })}
        <BarStackHorizontal<Row, string>
          data={rows}
          keys={keys}
          y={(row) => row.key}
          xScale={xScale}
          yScale={yScale}
          color={(key) => colours.get(key) ?? '#5e554f'}
        >
          {(stacks) => <StackParts stacks={stacks} dy={LABEL_HEIGHT} height={BAR_HEIGHT} />}
        </BarStackHorizontal>
      </Group>
    </svg>
  );
}
