import type { ReactNode } from 'react';

import styles from './empty-state.module.css';

type EmptyStateProps = {
  children: ReactNode;
  /** 'problem' for a failure (a solid box with a brand edge). */
  tone?: 'neutral' | 'problem';
  /** 'tight' puts less space between a short heading and its line. */
  spacing?: 'regular' | 'tight';
  role?: 'status' | 'alert';
  /** The page's own type: the heading's size, the text's colour. */
  className?: string;
};

/** What stands where a list or a result would be: nothing yet, nothing found, loading, failed. */
export function EmptyState({
  children,
  tone = 'neutral',
  spacing = 'regular',
  role,
  className,
}: EmptyStateProps) {
  const classes = [
    styles.empty,
    spacing === 'tight' ? styles.tight : null,
    tone === 'problem' ? styles.problem : null,
    className,
  ];
  return (
    <div className={classes.filter(Boolean).join(' ')} role={role}>
      {children}
    </div>
  );
}
