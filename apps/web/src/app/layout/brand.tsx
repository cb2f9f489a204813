import { Link } from 'react-router';

import styles from './brand.module.css';

type BrandProps = {
  onDark?: boolean;
  onNavigate?: () => void;
};

/**
 * Logo mark and name, linking home. Its name is the words it shows (WCAG 2.5.3, Label in Name),
 * so someone using speech input can say what they see; the space between the two lines keeps
 * them two words in that name.
 */
export function Brand({ onDark = false, onNavigate }: BrandProps) {
  return (
    <Link to="/" className={onDark ? `${styles.brand} ${styles.onDark}` : styles.brand} onClick={onNavigate}>
      <img className={styles.mark} src="/gem-mark.svg" alt="" width={36} height={36} />
      <span className={styles.words}>
        <span className={styles.name}>GEM</span>{' '}
        <span className={styles.tagline}>Generative and Enhanced Marketing</span>
      </span>
    </Link>
  );
}
