import { INPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import { useId, useRef, type ComponentProps, type ReactNode } from 'react';

import { formatInteger } from '@/lib/format-number';
import { useValueTypedBeforeHydration } from '@/lib/hydration';

import styles from './fields.module.css';

type TextAreaFieldProps = Omit<ComponentProps<'textarea'>, 'onChange' | 'value' | 'id'> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** A line under the label. */
  hint?: ReactNode;
  /** Characters accepted; the count is shown against it and going over is explained. */
  limit?: number;
  /** What is being counted, for the over-limit message ("The content is too long"). */
  subject?: string;
  /** How the value is measured against the limit: characters unless told (a QR code holds bytes). */
  measure?: { of: (value: string) => number; unit: string };
};

/** 'regular' for a form's fields; 'compact' where many fields share a panel. */
type Density = 'regular' | 'compact';

function controlClass(density: Density, ...more: (string | undefined)[]): string {
  return [styles.control, density === 'compact' ? styles.compact : undefined, ...more]
    .filter(Boolean)
    .join(' ');
}

/** A bare text box in the fields' look, for a form that lays out its own label. */
export function TextInput({
  density = 'regular',
  className,
  ...props
}: ComponentProps<'input'> & { density?: Density }) {
  return <input className={controlClass(density, className)} {...props} />;
}

/** A bare multi-line text box in the fields' look; its height is the caller's. */
export function TextArea({
  density = 'regular',
  className,
  ...props
}: ComponentProps<'textarea'> & { density?: Density }) {
  return <textarea className={controlClass(density, className)} {...props} />;
}

/** A bare select in the fields' look, with the drawn chevron. */
export function SelectInput({
  density = 'regular',
  className,
  ...props
}: ComponentProps<'select'> & { density?: Density }) {
  return (
    <span className={styles.selectWrap}>
      <select className={controlClass(density, styles.select, className)} {...props} />
    </span>
  );
}

const characters = { of: (value: string) => value.length, unit: 'characters' };

/** Whether a field's text is over the input limit (the server refuses it). */
export function isOverLimit(value: string, limit: number = INPUT_CHARACTER_LIMIT): boolean {
  return value.length > limit;
}

/** A labelled text area with a character count against the input limit. */
export function TextAreaField({
  label,
  value,
  onValueChange,
  hint,
  limit = INPUT_CHARACTER_LIMIT,
  subject = 'The text',
  measure = characters,
  rows = 6,
  className,
  ...props
}: TextAreaFieldProps) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  useValueTypedBeforeHydration(ref, value, onValueChange);
  const used = measure.of(value);
  const over = used > limit;
  const describedBy = [hint ? `${id}-hint` : null, `${id}-count`, over ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <textarea
        ref={ref}
        id={id}
        className={`${styles.control} ${styles.multiline}`}
        rows={rows}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={over || undefined}
        aria-describedby={describedBy}
        spellCheck
        {...props}
      />
      <div className={styles.meta}>
        {over ? (
          <p id={`${id}-error`} className={styles.error} role="alert">
            {subject} is too long: at most {formatInteger(limit)} {measure.unit}. Shorten it to continue.
          </p>
        ) : (
          <span />
        )}
        <p id={`${id}-count`} className={over ? `${styles.count} ${styles.countOver}` : styles.count}>
          <span className="visually-hidden">{measure === characters ? 'Characters' : 'Size'}: </span>
          {formatInteger(used)} / {formatInteger(limit)}
          {measure === characters ? null : ` ${measure.unit}`}
        </p>
      </div>
    </div>
  );
}

type SelectFieldProps<V extends string | number> = {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onValueChange: (value: V) => void;
  disabled?: boolean;
};

/** A labelled select over a fixed list of typed values. */
export function SelectField<V extends string | number>({
  label,
  value,
  options,
  onValueChange,
  disabled,
}: SelectFieldProps<V>) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <SelectInput
        id={id}
        value={String(value)}
        disabled={disabled}
        onChange={(event) => {
          const picked = options.find((o) => String(o.value) === event.target.value);
          if (picked) onValueChange(picked.value);
        }}
      >
        {options.map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </SelectInput>
    </div>
  );
}
