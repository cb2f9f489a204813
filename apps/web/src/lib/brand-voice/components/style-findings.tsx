import { styleRuleIds, styleRuleLabels, type StyleFinding } from '@gem/contracts/brand-voice';
import { useId, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { CheckIcon, RefreshIcon } from '@/components/ui/icons';

import type { StyleFindingsState } from '../use-style-findings';
import { textParts } from '../style-findings-logic';
import styles from './style-findings.module.css';

type StyleFindingsProps = {
  state: StyleFindingsState;
  /** The Check button of its own (a page with a form of its own checks from there). */
  checkButton?: boolean;
  /** The text with its findings marked; off where the owner shows the text marked itself. */
  showText?: boolean;
  /** The heading level of the section's title. */
  headingLevel?: 'h2' | 'h3';
  /** Apply, Apply all and Undo; off for someone who may read the text but not change it. */
  canApply?: boolean;
};

/** A word in Polish quotation marks; punctuation alone (a quotation mark, '!!') in brackets, so it reads. */
const quoted = (text: string) => (/[\p{L}\p{N}]/u.test(text) ? `„${text.trim()}”` : `[ ${text} ]`);

/** What the fix does, in words: 'Replace „tanich” with „przystępnych”'. */
export function fixWords(finding: StyleFinding): string | null {
  if (!finding.fix) return null;
  const replacement = finding.fix.replacement;
  if (finding.start === finding.end) return `Add ${quoted(replacement)}`;
  if (replacement === '') return `Remove ${quoted(finding.text)}`;
  return `Replace ${quoted(finding.text)} with ${quoted(replacement)}`;
}

/**
 * The style check's findings for one text (issue 31, "Shown inline"): the score, a count per
 * rule, the text with each finding marked (each mark a button that takes the keyboard to the
 * finding), and the list of findings with the rule, the message, the reason and the suggested
 * fix; Apply one, Apply all (every safe fix), Undo, Check again.
 */
export function StyleFindings({
  state,
  checkButton = true,
  showText = true,
  headingLevel: Heading = 'h3',
  canApply = true,
}: StyleFindingsProps) {
  const id = useId();
  const { checked, current, findings, selected, itemId } = state;
  const check = checked?.check;

  return (
    <section className={styles.root} aria-labelledby={`${id}-title`} data-style-findings="">
      <div className={styles.header}>
        <Heading id={`${id}-title`} className={styles.title}>
          Brand voice and style
        </Heading>
        {check && current ? (
          <p className={styles.score}>
            <span className={styles.scoreValue}>{check.score}</span>
            <span className={styles.scoreOf}>/ 100</span>
            <span className="visually-hidden"> score</span>
          </p>
        ) : null}
      </div>

      {check ? (
        <p className={styles.version}>
          {check.version === null
            ? 'No brand profile is saved yet: only the house’s typography was checked.'
            : `Checked against brand profile version ${check.version}.`}
          {current && state.edited ? ' The score is the last check’s: check again to update it.' : null}
        </p>
      ) : (
        <p className={styles.version}>
          Check the text against the brand profile: banned and preferred terms, names, disclaimers, limits and
          typography.
        </p>
      )}

      {checked && !current ? (
        <p className={styles.stale} role="note">
          The text has changed since it was checked. Check it again to see its findings.
        </p>
      ) : null}

      {check && current ? <RuleCounts findings={findings} /> : null}

      {showText && current && findings.length > 0 ? (
        <div className={styles.text} aria-label="The text with its findings marked" role="group">
          {textParts(state.text, findings).map((part, index) =>
            part.kind === 'text' ? (
              <span key={index}>{part.text}</span>
            ) : (
              <FindingMark key={part.finding.id} state={state} finding={part.finding}>
                {part.text === '' ? <span className={styles.place}>missing here</span> : part.text}
              </FindingMark>
            ),
          )}
        </div>
      ) : null}

      <div className={styles.actions}>
        {checkButton ? (
          <Button
            variant={check ? 'secondary' : 'primary'}
            onClick={() => void state.check()}
            disabled={state.isChecking || state.text.trim() === ''}
            aria-busy={state.isChecking || undefined}
          >
            <RefreshIcon />
            {state.isChecking ? 'Checking…' : check ? 'Check again' : 'Check'}
          </Button>
        ) : null}
        {canApply && check && current && findings.length > 0 ? (
          <Button variant="primary" onClick={state.applyAll} disabled={state.safeCount === 0}>
            <CheckIcon />
            Apply all{state.safeCount > 0 ? ` (${state.safeCount})` : ''}
          </Button>
        ) : null}
        {canApply && state.canUndo ? (
          <Button variant="secondary" onClick={state.undo}>
            Undo
          </Button>
        ) : null}
      </div>

      <p className={styles.status} role="status">
        {state.status}
      </p>
      {state.error ? (
        <p className={styles.error} role="alert">
          {state.error}
        </p>
      ) : null}

      {current && findings.length > 0 ? (
        <ol className={styles.list} aria-label="Findings">
          {[...findings]
            .sort((a, b) => a.start - b.start || a.end - b.end)
            .map((finding) => (
              <FindingItem
                key={finding.id}
                id={itemId(finding)}
                finding={finding}
                selected={finding.id === selected}
                onApply={canApply ? () => state.apply(finding) : undefined}
              />
            ))}
        </ol>
      ) : null}
    </section>
  );
}

type FindingMarkProps = { state: StyleFindingsState; finding: StyleFinding; children: ReactNode };

/**
 * One finding marked in the text: a button that takes the keyboard to the finding's entry in the
 * list (its message describes the mark). The findings' own text view and the formatted output of
 * a writing tool both mark with it.
 */
export function FindingMark({ state, finding, children }: FindingMarkProps) {
  const words = finding.start === finding.end ? 'missing here' : finding.text;
  return (
    <mark
      className={finding.id === state.selected ? `${styles.mark} ${styles.selected}` : styles.mark}
      data-rule={finding.rule}
    >
      <button
        type="button"
        className={styles.markButton}
        aria-label={`${words} (${styleRuleLabels[finding.rule]})`}
        aria-describedby={`${state.itemId(finding)}-message`}
        onClick={() => state.select(finding)}
      >
        {children}
      </button>
    </mark>
  );
}

function FindingItem({
  id,
  finding,
  selected,
  onApply,
}: {
  id: string;
  finding: StyleFinding;
  selected: boolean;
  onApply: (() => void) | undefined;
}) {
  const words = fixWords(finding);
  return (
    <li id={id} tabIndex={-1} className={selected ? `${styles.item} ${styles.selected}` : styles.item}>
      <p className={styles.itemHead}>
        <span className={styles.rule} data-rule={finding.rule}>
          {styleRuleLabels[finding.rule]}
        </span>
        {finding.text ? <span className={styles.found}>{quoted(finding.text)}</span> : null}
      </p>
      <p id={`${id}-message`} className={styles.message}>
        {finding.message}
      </p>
      {finding.reason ? <p className={styles.reason}>Why: {finding.reason}</p> : null}
      {words && finding.fix ? (
        <div className={styles.fix}>
          <p>
            Suggested fix: {words.charAt(0).toLowerCase() + words.slice(1)}.
            {finding.fix.safe ? null : ' Read it over before you apply it: Apply all leaves it out.'}
          </p>
          {onApply ? (
            <Button
              variant="secondary"
              className={styles.apply}
              onClick={onApply}
              aria-label={`Apply: ${words}`}
            >
              Apply
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** A bar per rule that found something, with its count; the numbers are the text of each row. */
function RuleCounts({ findings }: { findings: readonly StyleFinding[] }) {
  const rows = styleRuleIds
    .map((rule) => ({ rule, count: findings.filter((finding) => finding.rule === rule).length }))
    .filter((row) => row.count > 0);
  if (rows.length === 0)
    return <p className={styles.clean}>Nothing found: the text follows the brand profile.</p>;
  const most = Math.max(...rows.map((row) => row.count));
  return (
    <ul className={styles.counts} aria-label="Findings per rule">
      {rows.map((row) => (
        <li key={row.rule} className={styles.count}>
          <span className={styles.countLabel}>{styleRuleLabels[row.rule]}</span>
          <span className={styles.track} aria-hidden="true">
            <span className={styles.bar} style={{ width: `${(row.count / most) * 100}%` }} />
          </span>
          <span className={styles.countValue}>
            <span className="visually-hidden">: </span>
            {row.count}
          </span>
        </li>
      ))}
    </ul>
  );
}
