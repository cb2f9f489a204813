import type { StyleCheck } from '@gem/contracts/brand-voice';
import type { BriefData } from '@gem/contracts/brief-creator';
import { briefStyleText, briefWithFixes } from '@gem/contracts/brief-creator-style';
import { useEffect, useMemo, useRef } from 'react';

import { StyleFindings } from '@/lib/brand-voice/components/style-findings';
import { useStyleFindings } from '@/lib/brand-voice/use-style-findings';

type BriefStyleProps = {
  brief: BriefData;
  /** The check that came with the brief (a turn's final event): shown without asking again. */
  initial?: StyleCheck | null;
  /** Apply, Apply all and Undo change the brief's fields; without it the findings are read only. */
  onBriefChange?: (next: BriefData) => void;
  /** While a turn runs the brief is not to be changed. */
  locked?: boolean;
  /** Checks once on opening when no check came with the brief (a finished brief). */
  checkOnOpen?: boolean;
};

/**
 * The brief's style check (issue 31): the shared findings, of the brief as the exports write it
 * (briefStyleText, the text the server checks after each turn). Apply and Apply all put each fix
 * into the field it falls in, so the fields, the session and the exports have it; Undo brings the
 * brief back as it was, unless it was changed by hand since.
 */
export function BriefStyle({
  brief,
  initial,
  onBriefChange,
  locked = false,
  checkOnOpen = false,
}: BriefStyleProps) {
  const text = useMemo(() => briefStyleText(brief).text, [brief]);
  // Each fixed text's brief before the fix, for Undo: { before, after } by the text Undo goes back to.
  const undoable = useRef(new Map<string, { before: BriefData; after: string }>());

  const state = useStyleFindings({
    text,
    target: 'brief-creator',
    initial,
    onChange(next, applied) {
      if (!onBriefChange) return;
      // Apply and Undo run in this render's handlers: `brief` is the brief shown.
      const from = brief;
      if (applied) {
        let fixed: BriefData | null;
        try {
          fixed = briefWithFixes(from, applied.length === 1 ? { one: applied[0]! } : { all: applied });
        } catch {
          fixed = null;
        }
        // A fix across two fields cannot go into the brief: its findings then show as out of date.
        if (!fixed || briefStyleText(fixed).text !== next) return;
        undoable.current.set(briefStyleText(from).text, { before: from, after: next });
        onBriefChange(fixed);
        return;
      }
      const back = undoable.current.get(next);
      if (back && briefStyleText(from).text === back.after) onBriefChange(back.before);
    },
  });

  const { check } = state;
  const checkedOnOpen = useRef(false);
  useEffect(() => {
    if (!checkOnOpen || initial || checkedOnOpen.current || text.trim() === '') return;
    checkedOnOpen.current = true;
    void check();
  }, [checkOnOpen, initial, text, check]);

  return <StyleFindings state={state} canApply={onBriefChange !== undefined && !locked} />;
}
