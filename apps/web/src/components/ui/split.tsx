import type { ReactNode } from 'react';

import styles from './split.module.css';

type SplitProps = {
  children: ReactNode;
  /** 'start': each column as tall as its content; 'stretch': both as tall as the taller. */
  align?: 'start' | 'stretch';
  /** The space between the columns: 'lg' (--space-5) or 'md' (--space-4). */
  gap?: 'md' | 'lg';
  /** Where the columns stack: below a tablet's width (1024 px) or a phone's (768 px). */
  stackBelow?: 'tablet' | 'phone';
  /** A class that sets --split-start and --split-end, when the columns are not equal. */
  className?: string;
};

/** Two columns side by side (a form and its result, two charts) that stack on a narrow screen. */
export function Split({
  children,
  align = 'stretch',
  gap = 'lg',
  stackBelow = 'tablet',
  className,
}: SplitProps) {
  const classes = [
    styles.split,
    align === 'start' ? styles.start : null,
    gap === 'md' ? styles.gapMd : null,
    stackBelow === 'phone' ? styles.stackPhone : styles.stackTablet,
    className,
  ];
  return <div className={classes.filter(Boolean).join(' ')}>{children}</div>;
}
