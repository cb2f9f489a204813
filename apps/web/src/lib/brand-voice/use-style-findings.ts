import {
  applyAll as applyAllFixes,
  applyFix,
  safeFixes,
  StaleFindingError,
  type BrandTarget,
  type StyleCheck,
  type StyleFinding,
} from '@gem/contracts/brand-voice';
import { useCallback, useId, useState } from 'react';

import { checkErrorText, useCheckStyle } from './check-style';
import { findingsAfter, withFindings } from './style-findings-logic';

/** A check and the text it holds for: the findings' offsets are into `text`. */
export type CheckedText = { text: string; check: StyleCheck };

type Snapshot = { text: string; checked: CheckedText | null; edited: boolean };

export type StyleFindingsOptions = {
  /** The text as its owner shows it now. */
  text: string;
  /**
   * The owner decides what an applied text replaces (the field, the output, the asset). `applied`
   * names the findings an Apply or Apply all fixed (an owner of several fields puts each fix in
   * its own); null when Undo brings an earlier text back.
   */
  onChange: (text: string, applied: readonly StyleFinding[] | null) => void;
  /** What the text is for: its disclaimers and limits are checked too. */
  target?: BrandTarget | undefined;
  /** A check that came with the text (a generation's final event): shown without asking again. */
  initial?: StyleCheck | null | undefined;
  /** Changes when the owner shows another text (a new generation): everything starts again. */
  resetKey?: unknown;
};

export const staleFindingText =
  'This finding no longer matches the text: the text changed after it was checked. Choose Check again to see what holds now.';

/**
 * The style check's findings for one text: Check (again), Apply one, Apply all (every safe fix),
 * and Undo back through each apply. An apply moves the other findings by what it changed and drops
 * those it touched, so they stay right without a new check; the score stays the last check's
 * until the text is checked again. When the owner changes the text another way, the findings are
 * stale: none are shown until the text is checked again.
 */
export function useStyleFindings({ text, onChange, target, initial, resetKey }: StyleFindingsOptions) {
  const mutation = useCheckStyle();
  const id = useId();
  const [selected, setSelected] = useState<string | null>(null);
  const [checked, setChecked] = useState<CheckedText | null>(initial ? { text, check: initial } : null);
  const [edited, setEdited] = useState(false);
  const [undoStack, setUndoStack] = useState<Snapshot[]>([]);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A new check arrives with a new text (another generation): start again from it.
  const [seen, setSeen] = useState({ initial, resetKey });
  if (seen.initial !== initial || seen.resetKey !== resetKey) {
    setSeen({ initial, resetKey });
    setSelected(null);
    setChecked(initial ? { text, check: initial } : null);
    setEdited(false);
    setUndoStack([]);
    setStatus('');
    setError(null);
  }

  const current = checked !== null && checked.text === text;
  const findings = current ? checked.check.findings : [];

  const check = useCallback(async () => {
    setError(null);
    setStatus('');
    try {
      const result = await mutation.mutateAsync({ text, ...(target ? { target } : {}) });
      setChecked({ text, check: result });
      setEdited(false);
      const count = result.findings.length;
      setStatus(
        count === 0
          ? 'Checked: nothing found.'
          : `Checked: ${count} ${count === 1 ? 'finding' : 'findings'}.`,
      );
    } catch (failure) {
      setError(checkErrorText(failure));
    }
  }, [mutation, text, target]);

  function commit(next: string, applied: StyleFinding[], said: string) {
    if (!checked) return;
    setUndoStack((stack) => [...stack, { text, checked, edited }]);
    setChecked({
      text: next,
      check: withFindings(checked.check, findingsAfter(next, checked.check.findings, applied)),
    });
    setEdited(true);
    setError(null);
    setStatus(said);
    onChange(next, applied);
  }

  function guard(run: () => void) {
    try {
      run();
    } catch (failure) {
      if (!(failure instanceof StaleFindingError)) throw failure;
      setStatus('');
      setError(staleFindingText);
    }
  }

  const apply = (finding: StyleFinding) =>
    guard(() => {
      if (!current) throw new StaleFindingError();
      commit(applyFix(text, finding), [finding], 'Fix applied. Undo brings the text back.');
    });

  const fixable = current ? safeFixes(findings) : [];
  const applyAll = () =>
    guard(() => {
      if (!current) throw new StaleFindingError();
      const chosen = safeFixes(findings);
      if (chosen.length === 0) return;
      commit(
        applyAllFixes(text, findings),
        chosen,
        `${chosen.length} ${chosen.length === 1 ? 'fix' : 'fixes'} applied. Undo brings the text back.`,
      );
    });

  const undo = () => {
    const last = undoStack.at(-1);
    if (!last) return;
    setUndoStack((stack) => stack.slice(0, -1));
    setChecked(last.checked);
    setEdited(last.edited);
    setError(null);
    setStatus('The text is back as it was before the last fix.');
    onChange(last.text, null);
  };

  /** The id of a finding's entry in the list, so a mark in the text can take the keyboard to it. */
  const itemId = (finding: StyleFinding) => `${id}-finding-${finding.id}`;
  /** A mark was chosen: its entry in the list is selected and takes the focus. */
  const select = (finding: StyleFinding) => {
    setSelected(finding.id);
    document.getElementById(itemId(finding))?.focus();
  };

  return {
    text,
    target,
    /** The finding whose mark was chosen last. */
    selected,
    select,
    itemId,
    /** The last check, for this text or an earlier one. */
    checked,
    /** The findings hold for the text shown now. */
    current,
    findings,
    /** Fixes were applied since the last check (the score is the check's). */
    edited,
    /** Findings Apply all would fix. */
    safeCount: fixable.length,
    canUndo: undoStack.length > 0,
    undoDepth: undoStack.length,
    isChecking: mutation.isPending,
    status,
    error,
    check,
    apply,
    applyAll,
    undo,
  };
}

export type StyleFindingsState = ReturnType<typeof useStyleFindings>;
