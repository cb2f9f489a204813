import type { CampaignAssetDetails } from '@gem/contracts/campaign-assets';

import { Button } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';

import styles from './campaign-assets.module.css';

type AssetConflictProps = {
  label: string;
  /** The version the user's edit was made on. */
  base: number;
  /** The asset as it now stands, once asked for again (null until then). */
  theirs: CampaignAssetDetails | null;
  /** The user's text, which the server kept as a version of its own (its number once known). */
  mine: { text: string; version: number | null };
  busy: boolean;
  error: string | null;
  onKeepMine: () => void;
  onKeepTheirs: () => void;
  onEditMine: () => void;
};

/**
 * A save refused because someone saved or generated the asset after the user began (409): the
 * newest version beside the user's text, which is kept as a version too; the user keeps one.
 */
export function AssetConflict({
  label,
  base,
  theirs,
  mine,
  busy,
  error,
  onKeepMine,
  onKeepTheirs,
  onEditMine,
}: AssetConflictProps) {
  return (
    <div className={styles.conflict} role="alert">
      <p className={styles.conflictTitle}>
        <AlertIcon />
        Someone changed the {label} while you were editing version {base}
        {theirs ? `: it is now version ${theirs.version}` : ''}.
      </p>
      <p>
        Your text is not lost: it is kept
        {mine.version ? ` as version ${mine.version}` : ' as a version of its own'}. Compare the two, then
        keep one.
      </p>
      {theirs ? (
        <>
          <div className={styles.sides}>
            <div
              role="group"
              className={styles.side}
              aria-label={`Version ${theirs.version}, the current one`}
            >
              <p className={styles.sideLabel}>Version {theirs.version} · current</p>
              <p className={styles.sideText} tabIndex={0}>
                {theirs.text}
              </p>
            </div>
            <div
              role="group"
              className={styles.side}
              aria-label={mine.version ? `Yours, kept as version ${mine.version}` : 'Yours'}
            >
              <p className={styles.sideLabel}>Yours{mine.version ? ` · version ${mine.version}` : ''}</p>
              <p className={styles.sideText} tabIndex={0}>
                {mine.text}
              </p>
            </div>
          </div>
          <div className={styles.panelActions}>
            <Button
              className={styles.smallButton}
              disabled={busy || mine.version === null}
              onClick={onKeepMine}
            >
              Keep mine
            </Button>
            <Button variant="secondary" className={styles.smallButton} disabled={busy} onClick={onKeepTheirs}>
              Keep theirs
            </Button>
            <Button variant="secondary" className={styles.smallButton} disabled={busy} onClick={onEditMine}>
              Go on editing mine
            </Button>
          </div>
          {error ? <p className={styles.fieldError}>{error}</p> : null}
        </>
      ) : (
        <p className={styles.muted} role="status">
          Loading the newest version…
        </p>
      )}
    </div>
  );
}
