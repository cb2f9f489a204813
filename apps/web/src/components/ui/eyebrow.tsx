import type { ReactNode } from 'react';

import styles from './eyebrow.module.css';

/** The kicker above a heading ('Tools', 'Access denied'): small capitals in the brand's orange. */
export function Eyebrow({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={className ? `${styles.eyebrow} ${className}` : styles.eyebrow}>{children}</p>;
}
