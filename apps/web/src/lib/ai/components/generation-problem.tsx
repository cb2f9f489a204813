import { useEffect, useState } from 'react';

import { AlertIcon } from '@/components/ui/icons';

import { formatWait, tooManyRequestsText, type GenerationProblem } from '../generation-errors';
import styles from './generation-problem.module.css';

/** Spec §8's text, with what happened and what to do about it; a countdown when asked to wait. */
export function GenerationProblemAlert({ problem }: { problem: GenerationProblem }) {
  return (
    <div className={styles.problem} role="alert">
      <AlertIcon />
      <div>
        <p className={styles.problemMessage}>{problem.message}</p>
        {problem.retryAt !== undefined ? (
          <RetryCountdown reason={problem.detail ?? tooManyRequestsText} retryAt={problem.retryAt} />
        ) : problem.detail ? (
          <p className={styles.problemDetail}>{problem.detail}</p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Why to wait, then 'Try again in 27 seconds', counting down. The alert around it speaks the
 * first reading only (aria-live off inside), so a screen reader is not told every second.
 */
function RetryCountdown({ reason, retryAt }: { reason: string; retryAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  const left = Math.ceil((retryAt - now) / 1000);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [left, now]);
  return (
    <p className={styles.problemDetail}>
      {reason}{' '}
      <span aria-live="off">{left > 0 ? `Try again in ${formatWait(left)}.` : 'You can try again now.'}</span>
    </p>
  );
}
