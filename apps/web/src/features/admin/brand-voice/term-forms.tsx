import type { BrandVersion, TermFormsEntry } from '@gem/contracts/brand-voice';
import { useId, useMemo, useState } from 'react';

import { TextInput } from '@/components/ui/fields';
import { Panel } from '@/components/ui/panel';
import { formatInteger } from '@/lib/format-number';

import styles from './brand-voice-section.module.css';

/** How many forms of a word are listed before "and N more". */
const SHOWN_FORMS = 8;
/** How many terms are listed before the filter is needed. */
const SHOWN_TERMS = 60;

/** A word's forms in a line: the word itself first, then the others. */
function formsLine(word: readonly string[]): string {
  const rest = word.slice(1, SHOWN_FORMS + 1);
  const more = word.length - 1 - rest.length;
  return `${rest.join(', ')}${more > 0 ? `… and ${formatInteger(more)} more` : rest.length > 0 ? '…' : ''}`;
}

/** One term: "tani → tania, taniego, tanich…"; a phrase shows each word's forms. */
function TermLine({ entry }: { entry: TermFormsEntry }) {
  const single = entry.words.length === 1;
  const total = entry.words.reduce((sum, word) => sum + word.length, 0);
  return (
    <li className={styles.formsItem}>
      <span className={styles.formsTerm}>{entry.term}</span>
      {single ? (
        <span>
          {' → '}
          {entry.words[0]!.length > 1 ? formsLine(entry.words[0]!) : 'this form only'}
        </span>
      ) : (
        <span>
          {' → '}
          {entry.words
            .filter((word) => word.length > 1)
            .map((word) => `${word[0]}: ${formsLine(word)}`)
            .join(' · ') || 'these forms only'}
        </span>
      )}
      <span className={styles.muted}> ({formatInteger(total)} forms)</span>
    </li>
  );
}

/**
 * The forms each term of the version in force was expanded to at its save: what the style check
 * catches (a ban on "tani" also catches "tania", "taniego", "tanich").
 */
export function TermForms({ version }: { version: BrandVersion }) {
  const headingId = useId();
  const filterId = useId();
  const [filter, setFilter] = useState('');
  const banned = useMemo(() => new Set(version.profile.banned.map((b) => b.term)), [version]);
  const q = filter.trim().toLocaleLowerCase('pl');
  const matching = version.forms.filter(
    (entry) =>
      !q || entry.words.some((word) => word.some((form) => form.toLocaleLowerCase('pl').includes(q))),
  );
  // Banned terms first: they are what an administrator just added.
  const ordered = [...matching].sort((a, b) => Number(banned.has(b.term)) - Number(banned.has(a.term)));
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.title}>
          What the check catches
        </h2>
        <p className={styles.description}>
          The forms of each term in version {formatInteger(version.version)}, found when it was saved. The
          style check finds a term in any of them, and no other word (a ban on “tani” does not catch
          “taniec”).
        </p>
      </div>
      {version.forms.length > 0 ? (
        <div className={styles.field}>
          <label htmlFor={filterId} className={styles.smallLabel}>
            Find a term or a form
          </label>
          <TextInput
            id={filterId}
            type="search"
            density="compact"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        </div>
      ) : null}
      {ordered.length === 0 ? (
        <p className={styles.muted}>
          {version.forms.length === 0 ? 'The profile has no terms.' : 'No term has this form.'}
        </p>
      ) : (
        <ul className={styles.forms} aria-label="Terms and their forms">
          {ordered.slice(0, SHOWN_TERMS).map((entry) => (
            <TermLine key={entry.term} entry={entry} />
          ))}
        </ul>
      )}
      {ordered.length > SHOWN_TERMS ? (
        <p className={styles.muted}>
          {formatInteger(ordered.length - SHOWN_TERMS)} more terms: find one above.
        </p>
      ) : null}
    </Panel>
  );
}
