import { briefFieldLabels, type BriefData } from '@gem/contracts/brief-creator';
import { useEffect, useId, useRef, useState } from 'react';

import { Button } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';

import { changedFields, fieldText } from '../brief-values';
import styles from './campaign-details.module.css';

export type NewestVersion = { version: number; brief: BriefData; author: string | null };

type BriefConflictProps = {
  /** The version the user's changes were made on. */
  base: number;
  /** The newest saved version, once it is loaded (null until then), and who saved it when known. */
  newest: NewestVersion | null;
  /** What the user typed, still in the form. */
  mine: BriefData;
  busy: boolean;
  onSaveMine: () => void;
  onTakeNewest: () => void;
};

/**
 * A save refused because someone saved the brief after the user began (409): the user's text stays
 * in the form; they compare it with the newest version, then save theirs on top of it or take the
 * newest instead.
 */
export function BriefConflict({ base, newest, mine, busy, onSaveMine, onTakeNewest }: BriefConflictProps) {
  const [comparing, setComparing] = useState(false);
  const comparisonId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // Save is at the form's foot, this at its head: bring it into view when it is not.
  useEffect(() => {
    const box = ref.current;
    const top = box?.getBoundingClientRect().top ?? 0;
    const below = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    if (!box || (top >= below && top < window.innerHeight)) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)')?.matches;
    box.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
  }, []);
  return (
    <div ref={ref} className={styles.conflict} role="alert">
      <p className={styles.conflictTitle}>
        <AlertIcon />
        {newest
          ? `${newest.author ?? 'Someone'} saved version ${newest.version} of this brief while you were editing version ${base}.`
          : `Someone saved a newer version of this brief while you were editing version ${base}.`}
      </p>
      <p>Your changes are still in the form below: nothing you typed is lost.</p>
      {newest ? (
        <div className={styles.conflictActions}>
          <Button
            variant="secondary"
            className={styles.smallButton}
            aria-expanded={comparing}
            aria-controls={comparisonId}
            onClick={() => setComparing((was) => !was)}
          >
            {comparing ? 'Hide the comparison' : `Compare with version ${newest.version}`}
          </Button>
          <Button className={styles.smallButton} disabled={busy} onClick={onSaveMine}>
            Save mine as version {newest.version + 1}
          </Button>
          <Button variant="secondary" className={styles.smallButton} disabled={busy} onClick={onTakeNewest}>
            Discard mine and load version {newest.version}
          </Button>
        </div>
      ) : (
        <p className={styles.muted}>Loading the newest version…</p>
      )}
      <div
        id={comparisonId}
        role="group"
        aria-label={newest ? `Version ${newest.version} and yours` : undefined}
        hidden={!comparing}
      >
        {newest && comparing ? <Comparison theirs={newest} mine={mine} /> : null}
      </div>
    </div>
  );
}

/** The fields that differ, the newest version's text beside the user's. */
function Comparison({ theirs, mine }: { theirs: NewestVersion; mine: BriefData }) {
  const fields = changedFields(theirs.brief, mine);
  if (fields.length === 0) {
    return <p className={styles.muted}>Your brief and version {theirs.version} say the same.</p>;
  }
  return (
    <dl className={styles.comparison}>
      {fields.map((field) => (
        <div key={field} className={styles.comparisonRow}>
          <dt>{briefFieldLabels[field]}</dt>
          <dd>
            <span className={styles.comparisonSide}>Version {theirs.version}</span>
            <span className={styles.valueText}>{fieldText(theirs.brief, field) || '—'}</span>
          </dd>
          <dd>
            <span className={styles.comparisonSide}>Yours</span>
            <span className={styles.valueText}>{fieldText(mine, field) || '—'}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
