import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import { useEffect, useId, useRef, type ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormattedOutput } from '@/components/ui/formatted-output';
import { SparkIcon, StopIcon } from '@/components/ui/icons';
import { OutputPlaceholder, OutputSurface } from '@/components/ui/output-surface';

import { styledText, type GenerationState } from '../use-generation';
import { GenerationProblemAlert } from '@/lib/ai/components/generation-problem';
import { FindingMark, StyleFindings } from '@/lib/brand-voice/components/style-findings';
import { useStyleFindings } from '@/lib/brand-voice/use-style-findings';
import styles from './output-panel.module.css';

type OutputPanelProps = {
  /** The section heading; spec §2 calls it 'Check the output' in every writing tool. */
  title?: string;
  state: GenerationState;
  /** Shown before anything has been generated. */
  placeholder: ReactNode;
  /** How the finished output is shown, when it is more than formatted text (paid ads). */
  children?: ReactNode;
  /** Under the output once there is some: copy, send, counts. */
  actions?: ReactNode;
  /** The stop control, shown beside the output while it is being written. */
  onStop?: () => void;
};

const keep = () => undefined;

/**
 * Where a generation shows up: the text appears as it is written (a polite live region that
 * speaks once the writing is done), then the final text; or the spec's error text in its place.
 * Under a finished output, its style check against the brand profile (issue 31): the findings
 * marked in the output itself, then the score, the counts and the list, with Apply, Apply all
 * and Undo changing the output the page shows and copies (paid ads: the ad copy, marked below).
 */
export function OutputPanel({
  title = 'Check the output',
  state,
  placeholder,
  children,
  actions,
  onStop,
}: OutputPanelProps) {
  const headingId = useId();
  const panelRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const stopRef = useRef<HTMLButtonElement>(null);
  const movedFocus = useRef(false);
  const { status, text, problem } = state;
  const streaming = status === 'streaming';
  const styled = state.output ? styledText(state.output) : '';
  const findings = useStyleFindings({
    text: styled,
    onChange: state.revise ?? keep,
    target: state.target,
    initial: state.style,
    // Each generation (or output brought back) starts its check afresh.
    resetKey: state.run,
  });
  const showStyle = status === 'succeeded' && state.output && state.revise;
  // The findings are marked in the formatted output when it is the text they were found in.
  const marksInOutput = showStyle && !children && styled === text;
  const renderMark = (id: string, words: ReactNode) => {
    const finding = findings.findings.find((f) => f.id === id);
    return finding ? (
      <FindingMark state={findings} finding={finding}>
        {words}
      </FindingMark>
    ) : (
      words
    );
  };

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    if (streaming) {
      // The Generate button just became disabled under the keyboard focus: hand focus to Stop,
      // beside the text being written.
      if (focusWasLost()) {
        stopRef.current?.focus();
        movedFocus.current = true;
      }
      // On a phone the output sits below the form: bring it into view.
      if (panel.getBoundingClientRect().top > window.innerHeight * 0.6) {
        const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)')?.matches;
        panel.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
      }
    } else if (movedFocus.current) {
      // Stop is gone: land on the result, not on the page's start.
      movedFocus.current = false;
      if (focusWasLost()) headingRef.current?.focus({ preventScroll: true });
    }
  }, [streaming]);

  return (
    <OutputSurface
      ref={panelRef}
      heading={title}
      headingId={headingId}
      headingRef={headingRef}
      headingTabIndex={-1}
      headingAside={
        streaming ? (
          <span className={styles.status}>
            <span className={styles.writing}>
              <span className={styles.pulse} aria-hidden="true" />
              Writing…
            </span>
            {onStop ? (
              <Button ref={stopRef} variant="secondary" className={styles.stop} onClick={onStop}>
                <StopIcon />
                Stop
              </Button>
            ) : null}
          </span>
        ) : status === 'cancelled' ? (
          <span className={styles.stopped}>Stopped</span>
        ) : state.output?.demo ? (
          // Every answer of the built-in stand-in says what it is.
          <Badge>{DEMO_ANSWER_TEXT}</Badge>
        ) : null
      }
    >
      {problem ? <GenerationProblemAlert problem={problem} /> : null}
      <div className={styles.body} aria-live="polite" aria-busy={streaming} data-output-status={status}>
        {text ? (
          marksInOutput ? (
            <FormattedOutput text={text} highlights={findings.findings} renderHighlight={renderMark} />
          ) : streaming || !children ? (
            <FormattedOutput text={text} />
          ) : (
            children
          )
        ) : streaming ? (
          <div className={styles.skeleton}>
            <span className="visually-hidden">GEM is writing…</span>
            <span className={styles.bar} aria-hidden="true" />
            <span className={styles.bar} aria-hidden="true" />
            <span className={styles.bar} aria-hidden="true" />
          </div>
        ) : problem ? null : (
          <OutputPlaceholder>
            <SparkIcon />
            <p>{placeholder}</p>
          </OutputPlaceholder>
        )}
      </div>
      {status === 'cancelled' && text ? (
        <p className={styles.note}>You stopped the writing; this is what GEM had written so far.</p>
      ) : null}
      {/* What GEM decided about the answer, e.g. that the first of several variants is shown. */}
      {!streaming && state.output?.notes?.length
        ? state.output.notes.map((note) => (
            <p key={note} className={styles.note} role="note">
              {note}
            </p>
          ))
        : null}
      {/* Issue 31: the output's findings against the brand profile, with Apply and Undo. */}
      {showStyle ? (
        <div className={styles.style}>
          <StyleFindings state={findings} showText={!marksInOutput} />
        </div>
      ) : null}
      {actions && text && !streaming ? <div className={styles.actions}>{actions}</div> : null}
    </OutputSurface>
  );
}

/** Focus is nowhere useful: on the page itself, or on a button that was just disabled. */
function focusWasLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || (active instanceof HTMLButtonElement && active.disabled);
}
