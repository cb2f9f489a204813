import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

import { formatInteger } from '@/lib/format-number';

import styles from './stacked-bar-chart.module.css';

export type ChartCategory = {
  key: string;
  /** On the chart (short: 'Mar 02'). */
  label: string;
  /** In the table for screen readers (long: 'Week of Mar 2, 2026'). */
  fullLabel: string;
  /** The value of each series (by series key). */
  values: Record<string, number>;
};

export type ChartSeries = { key: string; name: string; colour: string };

/** The total of a category over the series. */
export const categoryTotal = (category: ChartCategory, series: readonly ChartSeries[]): number =>
  series.reduce((sum, s) => sum + (category.values[s.key] ?? 0), 0);

/** The series' colours and names, above a chart (hidden from screen readers: the table says it). */
export function ChartLegend({ series }: { series: readonly ChartSeries[] }) {
  return (
    <ul className={styles.legend} aria-hidden="true">
      {series.map((s) => (
        <li key={s.key} className={styles.legendItem}>
          <svg className={styles.swatch} viewBox="0 0 12 12" focusable="false">
            <rect width="12" height="12" rx="3" fill={s.colour} />
          </svg>
          {s.name}
        </li>
      ))}
    </ul>
  );
}

type ChartTableProps = {
  caption: string;
  /** The first column's header ('Week'). */
  categoryHeader: string;
  categories: readonly ChartCategory[];
  series: readonly ChartSeries[];
};

/** A chart's numbers as a table, for screen readers only. */
export function ChartTable({ caption, categoryHeader, categories, series }: ChartTableProps) {
  return (
    // The box hides it: a table is as wide as its cells, whatever width it is given.
    <div className="visually-hidden">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{categoryHeader}</th>
            {series.map((s) => (
              <th key={s.key} scope="col">
                {s.name}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {categories.map((c) => (
            <tr key={c.key}>
              <th scope="row">{c.fullLabel}</th>
              {series.map((s) => (
                <td key={s.key}>{formatInteger(c.values[s.key] ?? 0)}</td>
              ))}
              <td>{formatInteger(categoryTotal(c, series))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The width of an element, kept up to date as it resizes. */
export function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      // contentRect: the width inside the frame's padding, which is what the chart may fill.
      const next = entries[0]?.contentRect.width;
      if (next) setWidth(Math.floor(next));
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

type ChartFigureProps = {
  /** Shown above the chart and read as the table's caption. */
  caption: string;
  /** A line under the caption. */
  description?: ReactNode;
  /** The first column's header in the table ('Week'). */
  categoryHeader: string;
  categories: readonly ChartCategory[];
  series: readonly ChartSeries[];
  /** The width drawn at without a ResizeObserver (tests). */
  fallbackWidth: number;
  /** Beside the frame's own class. */
  frameClassName?: string;
  /** The SVG at the width the frame gives. */
  children: (width: number) => ReactNode;
};

/**
 * What both bar charts are around the drawing: the caption, a line under it, the legend, the frame
 * that measures the width to draw at, and the numbers as a table for screen readers. Drawn once
 * the width is known (the next frame), never wider than its place; without a ResizeObserver
 * (tests) at the fallback width.
 */
export function ChartFigure({
  caption,
  description,
  categoryHeader,
  categories,
  series,
  fallbackWidth,
  frameClassName,
  children,
}: ChartFigureProps) {
  const captionId = useId();
  const [frameRef, measured] = useWidth<HTMLDivElement>();
  const width = measured ?? (typeof ResizeObserver === 'undefined' ? fallbackWidth : null);
  return (
    <figure className={styles.figure} aria-labelledby={captionId}>
      <figcaption id={captionId} className={styles.caption}>
        {caption}
      </figcaption>
      {description ? <p className={styles.description}>{description}</p> : null}
      <ChartLegend series={series} />
      <div ref={frameRef} className={frameClassName ? `${styles.frame} ${frameClassName}` : styles.frame}>
        {width === null ? null : children(width)}
      </div>
      <ChartTable caption={caption} categoryHeader={categoryHeader} categories={categories} series={series} />
    </figure>
  );
}

type StackPart = { index: number; x: number; y: number; width: number; height: number; color: string };

/**
 * The stacked parts visx lays out (BarStack, BarStackHorizontal), as rectangles with a thin white
 * gap between them; empty parts are left out. `dy` moves them down and `height` sets their
 * thickness (a horizontal chart's bar sits under its label line).
 */
export function StackParts({
  stacks,
  dy = 0,
  height,
}: {
  stacks: readonly { index: number; bars: readonly StackPart[] }[];
  dy?: number;
  height?: number;
}) {
  return stacks.map((stack) =>
    stack.bars
      .filter((bar) => bar.width > 0 && bar.height > 0)
      .map((bar) => (
        <rect
          key={`${stack.index}-${bar.index}`}
          x={bar.x}
          y={bar.y + dy}
          width={bar.width}
          height={height ?? bar.height}
          fill={bar.color}
          className={styles.bar}
        />
      )),
  );
}
