import type { ComponentProps } from 'react';

import styles from './container.module.css';

/** Centres content at the site's reading width with the shared side gutters. */
export function Container({ className, ...props }: ComponentProps<'div'>) {
  return <div className={[styles.container, className].filter(Boolean).join(' ')} {...props} />;
}
