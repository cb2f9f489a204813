import type { ReactNode } from 'react';

import styles from './notice.module.css';

type NoticeProps = {
  /** 'brand' for a note (sample data); 'neutral' for a warning that is not an error. */
  tone?: 'brand' | 'neutral';
  /** 'note' for what is always there; 'status' for what appears when something changed. */
  role?: 'note' | 'status';
  children: ReactNode;
};

/** A short note in the flow of a page, in small text with a thick left edge. */
export function Notice({ tone = 'brand', role = 'note', children }: NoticeProps) {
  return (
    <div className={`${styles.notice} ${styles[tone]}`} role={role}>
      {children}
    </div>
  );
}
