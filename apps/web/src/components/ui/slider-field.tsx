import { useId, useRef, type CSSProperties, type ReactNode } from 'react';

import { useValueTypedBeforeHydration } from '@/lib/hydration';

import styles from './slider-field.module.css';

type SliderFieldProps = {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onValueChange: (value: number) => void;
  /** The value as shown and read out, e.g. "200 pt · 70.6 mm". */
  valueText: string;
  unit: string;
  /** Ticks under the track, e.g. the recommended print resolution. */
  marks?: readonly number[];
  children?: ReactNode;
};

/** A labelled range input with its value beside the label and notes under the track. */
export function SliderField({
  label,
  value,
  min,
  max,
  step,
  onValueChange,
  valueText,
  unit,
  marks,
  children,
}: SliderFieldProps) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  useValueTypedBeforeHydration(ref, String(value), (moved) => onValueChange(Number(moved)));
  const listId = marks ? `${id}-marks` : undefined;
  const filled = ((value - min) / (max - min)) * 100;
  return (
    <div className={styles.slider}>
      <div className={styles.sliderHead}>
        <label htmlFor={id} className={styles.sliderLabel}>
          {label}
        </label>
        <output htmlFor={id} className={styles.sliderValue}>
          {valueText}
        </output>
      </div>
      <input
        ref={ref}
        id={id}
        type="range"
        className={styles.range}
        min={min}
        max={max}
        step={step}
        value={value}
        list={listId}
        aria-valuetext={valueText}
        aria-describedby={children ? `${id}-notes` : undefined}
        onChange={(event) => onValueChange(Number(event.target.value))}
        // The filled part of the track; a CSS variable set through the style prop, which the CSP allows.
        style={{ '--filled': `${filled}%` } as CSSProperties}
      />
      {marks ? (
        <datalist id={listId}>
          {marks.map((mark) => (
            <option key={mark} value={mark} />
          ))}
        </datalist>
      ) : null}
      <div className={styles.sliderScale} aria-hidden="true">
        <span>
          {min} {unit}
        </span>
        <span>
          {max} {unit}
        </span>
      </div>
      {children ? (
        <div id={`${id}-notes`} className={styles.sliderNotes}>
          {children}
        </div>
      ) : null}
    </div>
  );
}
