import type { ReactNode } from 'react';

import styles from './card-grid.module.css';

type CardGridProps = {
  /** `four` keeps teasers on one row of four on wide screens; `auto` fits as many as fit. */
  columns?: 'auto' | 'four';
  /** Names the list for screen readers, by text or by the id of a visible heading. */
  label?: string;
  labelledBy?: string;
  children: ReactNode;
};

/** A list of cards; each child should be an <li>. */
export function CardGrid({ columns = 'auto', label, labelledBy, children }: CardGridProps) {
  const className = columns === 'four' ? `${styles.grid} ${styles.four}` : styles.grid;
  return (
    <ul className={className} aria-label={label} aria-labelledby={labelledBy}>
      {children}
    </ul>
  );
}
