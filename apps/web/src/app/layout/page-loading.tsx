import overlayStyles from '@/components/ui/loading-overlay.module.css';

import styles from './page-loading.module.css';

/** Shown in the page area while a page's code loads; it fades in late so a fast load shows nothing. */
export function PageLoading() {
  return (
    <div className={styles.area} role="status" aria-live="polite">
      <span className={overlayStyles.spinner} aria-hidden="true" />
      <span className={styles.label}>Loading the page…</span>
    </div>
  );
}
