import type { BrandVersionSummary } from '@gem/contracts/brand-voice';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { SelectInput } from '@/components/ui/fields';
import { Panel } from '@/components/ui/panel';
import { formatDateTime } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import { useBrandVersion, useBrandVersions } from './api/brand-voice';
import styles from './brand-voice-section.module.css';
import { compareProfiles } from './compare-versions';

const plural = (n: number, one: string, many: string) => `${formatInteger(n)} ${n === 1 ? one : many}`;

const countsText = (counts: BrandVersionSummary['counts']) =>
  [
    plural(counts.banned, 'banned term', 'banned terms'),
    plural(counts.preferred, 'preferred', 'preferred'),
    plural(counts.names, 'name', 'names'),
    plural(counts.disclaimers, 'disclaimer', 'disclaimers'),
  ].join(' · ');

/** Every version (who saved it, when, its note and counts), and two of them compared part by part. */
export function VersionsPanel({ current }: { current: number | null }) {
  const headingId = useId();
  const versions = useBrandVersions();
  const [pair, setPair] = useState<{ from: number; to: number } | null>(null);
  const items = versions.data?.items ?? [];
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.title}>
          Versions
        </h2>
        <p className={styles.description}>
          Every save is a version; every generation records the version it used. Compare two to see what
          changed.
        </p>
      </div>
      {versions.isPending ? (
        <p role="status" className={styles.muted}>
          Loading the versions…
        </p>
      ) : versions.isError ? (
        <p role="alert" className={styles.problem}>
          The versions could not be loaded.{' '}
          <Button variant="secondary" onClick={() => void versions.refetch()}>
            Try again
          </Button>
        </p>
      ) : items.length === 0 ? (
        <p className={styles.muted}>No version is saved yet.</p>
      ) : (
        <>
          <ul className={styles.versions} aria-label="Versions, newest first">
            {items.map((item) => (
              <li key={item.version} className={styles.version}>
                <span className={styles.versionNumber}>
                  Version {formatInteger(item.version)}
                  {item.version === current ? <span className={styles.muted}> (in force)</span> : null}
                </span>
                <span className={styles.muted}>
                  {item.savedBy ?? 'GEM (sample data)'} · {formatDateTime(item.savedAt)}
                </span>
                <span className={styles.versionNote}>
                  {item.note ?? <span className={styles.muted}>No note</span>}
                </span>
                <span className={styles.muted}>{countsText(item.counts)}</span>
                {item.version > 1 ? (
                  <Button
                    variant="secondary"
                    className={styles.compareButton}
                    onClick={() => setPair({ from: item.version - 1, to: item.version })}
                  >
                    Compare with version {formatInteger(item.version - 1)}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
          {items.length > 1 ? <ComparePicker items={items} pair={pair} onPick={setPair} /> : null}
          {pair ? <Comparison from={pair.from} to={pair.to} /> : null}
        </>
      )}
    </Panel>
  );
}

function ComparePicker({
  items,
  pair,
  onPick,
}: {
  items: BrandVersionSummary[];
  pair: { from: number; to: number } | null;
  onPick: (pair: { from: number; to: number }) => void;
}) {
  const id = useId();
  const [from, setFrom] = useState(pair?.from ?? items[1]!.version);
  const [to, setTo] = useState(pair?.to ?? items[0]!.version);
  const options = items.map((item) => (
    <option key={item.version} value={item.version}>
      Version {formatInteger(item.version)}
    </option>
  ));
  return (
    <div className={styles.picker}>
      <div className={styles.field}>
        <label htmlFor={`${id}-from`} className={styles.smallLabel}>
          Compare
        </label>
        <SelectInput
          id={`${id}-from`}
          density="compact"
          value={from}
          onChange={(e) => setFrom(Number(e.target.value))}
        >
          {options}
        </SelectInput>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-to`} className={styles.smallLabel}>
          with
        </label>
        <SelectInput
          id={`${id}-to`}
          density="compact"
          value={to}
          onChange={(e) => setTo(Number(e.target.value))}
        >
          {options}
        </SelectInput>
      </div>
      <Button
        variant="secondary"
        onClick={() => onPick({ from: Math.min(from, to), to: Math.max(from, to) })}
      >
        Compare
      </Button>
    </div>
  );
}

function Comparison({ from, to }: { from: number; to: number }) {
  const headingId = useId();
  const before = useBrandVersion(from);
  const after = useBrandVersion(to);
  const title = `Version ${formatInteger(from)} → version ${formatInteger(to)}`;
  if (before.isError || after.isError) {
    return (
      <p role="alert" className={styles.problem}>
        The versions could not be loaded to compare. Try again.
      </p>
    );
  }
  if (!before.data || !after.data) {
    return (
      <p role="status" className={styles.muted}>
        Loading versions {formatInteger(from)} and {formatInteger(to)}…
      </p>
    );
  }
  const parts = compareProfiles(before.data.profile, after.data.profile);
  return (
    <section className={styles.comparison} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.partTitle}>
        {title}
      </h3>
      {from === to ? (
        <p className={styles.muted}>Choose two different versions.</p>
      ) : parts.length === 0 ? (
        <p className={styles.muted}>The two versions have the same profile.</p>
      ) : (
        <dl className={styles.changes}>
          {parts.map((part) => (
            <div key={part.part} className={styles.change}>
              <dt className={styles.changePart}>{part.part}</dt>
              {part.added.map((item) => (
                <dd key={`+${item}`} className={styles.added}>
                  <span className={styles.changeKind}>Added</span> {item}
                </dd>
              ))}
              {part.removed.map((item) => (
                <dd key={`-${item}`} className={styles.removed}>
                  <span className={styles.changeKind}>Removed</span> {item}
                </dd>
              ))}
              {part.changed.map((item) => (
                <dd key={`~${item.what}`} className={styles.changed}>
                  <span className={styles.changeKind}>Changed</span>{' '}
                  {item.what === part.part ? '' : `${item.what}: `}
                  {item.before} → {item.after}
                </dd>
              ))}
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
