import type { AssetVersion } from '@gem/contracts/campaign-assets';
import { useMemo } from 'react';

import { formatInteger } from '@/lib/format-number';

import styles from './campaign-assets.module.css';
import { diffSummary, versionDiff } from './version-diff';

/**
 * Two versions compared word by word: what the newer one adds is underlined, what it drops is
 * struck through; a screen reader hears 'added' and 'removed' before each change.
 */
export function VersionDiff({ older, newer }: { older: AssetVersion; newer: AssetVersion }) {
  const parts = useMemo(() => versionDiff(older.text, newer.text), [older.text, newer.text]);
  if (older.version === newer.version) {
    return (
      <p className={styles.muted}>Both sides are version {older.version}: choose two different versions.</p>
    );
  }
  if (!parts) {
    return (
      <p className={styles.muted}>
        Versions {older.version} and {newer.version} differ almost everywhere: open each one to read it whole.
      </p>
    );
  }
  const { added, removed } = diffSummary(parts);
  const changed = added > 0 || removed > 0;
  return (
    <div className={styles.fields}>
      <p className={styles.muted} role="status">
        From version {older.version} to version {newer.version}:{' '}
        {changed
          ? `${formatInteger(added)} ${added === 1 ? 'word' : 'words'} added, ${formatInteger(removed)} removed.`
          : 'the same text.'}
      </p>
      {changed ? (
        <ul className={styles.legend}>
          <li>
            <ins className={styles.added}>Underlined</ins>: added in version {newer.version}
          </li>
          <li>
            <del className={styles.removed}>Struck through</del>: removed from version {older.version}
          </li>
        </ul>
      ) : null}
      <div
        className={styles.diff}
        role="group"
        aria-label={`Changes from version ${older.version} to version ${newer.version}`}
        // The changes can be long: the box scrolls, and a keyboard can reach it to scroll it.
        tabIndex={0}
      >
        {parts.map((part, index) =>
          part.kind === 'same' ? (
            <span key={index}>{part.text}</span>
          ) : part.kind === 'added' ? (
            <ins key={index} className={styles.added}>
              <span className="visually-hidden">[added: </span>
              {part.text}
              <span className="visually-hidden">]</span>
            </ins>
          ) : (
            <del key={index} className={styles.removed}>
              <span className="visually-hidden">[removed: </span>
              {part.text}
              <span className="visually-hidden">]</span>
            </del>
          ),
        )}
      </div>
    </div>
  );
}
