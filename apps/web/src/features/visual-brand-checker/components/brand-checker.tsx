import { Button } from '@/components/ui/button';

import { useVisualBrandChecker } from '../api/get-visual-brand-checker';
import styles from './brand-checker.module.css';

// What the external page needs to work (its own scripts, forms, opening results), and no more:
// no top navigation, so it can never take over GEM's window.
const SANDBOX =
  'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads';

/** The external brand checker, embedded; or a clear notice when none is configured. */
export function BrandChecker() {
  const settings = useVisualBrandChecker();

  if (settings.isPending) {
    return (
      <p className={styles.status} role="status">
        Loading the brand checker…
      </p>
    );
  }
  if (settings.isError) {
    return (
      <div className={styles.notice} role="alert">
        <h2>The brand checker could not be loaded</h2>
        <p>GEM could not reach its server. Check your connection and try again.</p>
        <Button variant="secondary" onClick={() => void settings.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { url } = settings.data;
  if (!url) {
    return (
      <div className={styles.notice}>
        <h2>The brand checker is not configured</h2>
        <p>
          This GEM has no brand checker page set up yet, so there is nothing to show here. Ask your
          administrator to connect the brand checker.
        </p>
      </div>
    );
  }
  return (
    <div className={styles.frameWrap}>
      <div className={styles.toolbar}>
        <span className={styles.host}>{new URL(url).host}</span>
        <a href={url} target="_blank" rel="noopener noreferrer" className={styles.external}>
          Open in a new tab
        </a>
      </div>
      <iframe
        className={styles.frame}
        src={url}
        title="Visual brand checker"
        sandbox={SANDBOX}
        referrerPolicy="strict-origin"
        loading="eager"
      />
    </div>
  );
}
