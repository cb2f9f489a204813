import type { ReactNode } from 'react';

import styles from './badge.module.css';

type BadgeProps = {
  tone?: 'neutral' | 'brand' | 'success';
  children: ReactNode;
};

export function Badge({ tone = 'neutral', children }: BadgeProps) {
  return <span className={`${styles.badge} ${styles[tone]}`}>{children}</span>;
}
