import type { ReactNode } from 'react';

import styles from './badge.module.css';

type BadgeProps = {
  tone?: 'neutral' | 'brand' | 'success';
  /** 'small' sits in a line of small text (a result's meta line) without making it taller. */
  size?: 'regular' | 'small';
  children: ReactNode;
};

export function Badge({ tone = 'neutral', size = 'regular', children }: BadgeProps) {
  const classes = [styles.badge, size === 'small' ? styles.small : null, styles[tone]];
  return <span className={classes.filter(Boolean).join(' ')}>{children}</span>;
}
