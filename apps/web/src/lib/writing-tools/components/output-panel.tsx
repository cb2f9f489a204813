import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import { useEffect, useId, useRef, type ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormattedOutput } from '@/components/ui/formatted-output';
import { SparkIcon, StopIcon } from '@/components/ui/icons';
import { OutputPlaceholder, OutputSurface } from '@/components/ui/output-surface';

import type { GenerationState } from '../use-generation';
import { GenerationProblemAlert } from '@/lib/ai/components/generation-problem';
import { OutputStyle } from './output-style';
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

/**
 * Where a generation shows up: the text appears as it is written (a polite live region that
 * speaks once the writing is done), then the final text; or the spec's error text in its place.
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
          streaming || !children ? (
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
      {status === 'succeeded' && state.output && state.revise ? (
        <OutputStyle key={state.run} state={state} output={state.output} revise={state.revise} />
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
