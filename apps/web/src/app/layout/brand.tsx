import { Link } from 'react-router';

import styles from './brand.module.css';

type BrandProps = {
  onDark?: boolean;
  onNavigate?: () => void;
};

/** Logo mark and name, linking home. */
export function Brand({ onDark = false, onNavigate }: BrandProps) {
  return (
    <Link
      to="/"
      className={onDark ? `${styles.brand} ${styles.onDark}` : styles.brand}
      aria-label="GEM home"
      onClick={onNavigate}
    >
      <img className={styles.mark} src="/gem-mark.svg" alt="" width={36} height={36} />
      <span className={styles.words} aria-hidden="true">
        <span className={styles.name}>GEM</span>
        <span className={styles.tagline}>Generative and Enhanced Marketing</span>
      </span>
    </Link>
  );
}
