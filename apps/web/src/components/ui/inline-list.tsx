import type { ComponentProps } from 'react';

import styles from './inline-list.module.css';

type InlineListProps = ComponentProps<'ul'> & {
  /** 'loose' leaves more room between items side by side (buttons). */
  spacing?: 'regular' | 'loose';
};

/** A list whose items stand in a row that wraps: chips, tags, a few buttons or links. */
export function InlineList({ spacing = 'regular', className, ...props }: InlineListProps) {
  const classes = [styles.list, spacing === 'loose' ? styles.loose : null, className];
  return <ul className={classes.filter(Boolean).join(' ')} {...props} />;
}
