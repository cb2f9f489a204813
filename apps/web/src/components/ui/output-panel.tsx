import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

import type { GenerationProblem } from '@/lib/generators/generation-errors';
import { formatWait } from '@/lib/generators/generation-errors';
import type { GenerationState } from '@/lib/generators/use-generation';

import { Button } from './button';
import { FormattedOutput } from './formatted-output';
import { AlertIcon, SparkIcon, StopIcon } from './icons';
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
    <section ref={panelRef} className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.header}>
        <h2 id={headingId} className={styles.title} ref={headingRef} tabIndex={-1}>
          {title}
        </h2>
        {streaming ? (
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
        ) : null}
      </div>
      {problem ? <Problem problem={problem} /> : null}
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
          <div className={styles.placeholder}>
            <SparkIcon />
            <p>{placeholder}</p>
          </div>
        )}
      </div>
      {status === 'cancelled' && text ? (
        <p className={styles.note}>You stopped the writing; this is what GEM had written so far.</p>
      ) : null}
      {actions && text && !streaming ? <div className={styles.actions}>{actions}</div> : null}
    </section>
  );
}

/** Spec §8's text, with what to do about it. */
export function Problem({ problem }: { problem: GenerationProblem }) {
  return (
    <div className={styles.problem} role="alert">
      <AlertIcon />
      <div>
        <p className={styles.problemMessage}>{problem.message}</p>
        {problem.retryAt !== undefined ? (
          <RetryCountdown retryAt={problem.retryAt} />
        ) : problem.detail ? (
          <p className={styles.problemDetail}>{problem.detail}</p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * 'Try again in 27 seconds', counting down. The alert around it speaks the first reading only
 * (aria-live off inside), so a screen reader is not told every second.
 */
function RetryCountdown({ retryAt }: { retryAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  const left = Math.ceil((retryAt - now) / 1000);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [left, now]);
  return (
    <p className={styles.problemDetail}>
      You have sent too many requests.{' '}
      <span aria-live="off">{left > 0 ? `Try again in ${formatWait(left)}.` : 'You can try again now.'}</span>
    </p>
  );
}

/** Focus is nowhere useful: on the page itself, or on a button that was just disabled. */
function focusWasLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || (active instanceof HTMLButtonElement && active.disabled);
}
