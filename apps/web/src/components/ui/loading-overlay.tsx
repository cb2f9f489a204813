import styles from './loading-overlay.module.css';

type LoadingOverlayProps = {
  title?: string;
  message?: string;
};

/** Full-screen overlay while authentication is in progress (spec §2). */
export function LoadingOverlay({
  title = 'Loading...',
  message = 'Please wait while we verify your session',
}: LoadingOverlayProps) {
  return (
    <div className={styles.overlay} role="status" aria-live="polite">
      <div className={styles.card}>
        <span className={styles.spinner} aria-hidden="true" />
        <p className={styles.title}>{title}</p>
        <p className={styles.message}>{message}</p>
      </div>
    </div>
  );
}
