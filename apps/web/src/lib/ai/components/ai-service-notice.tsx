import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import { useId } from 'react';

import { AlertIcon } from '@/components/ui/icons';

import styles from './ai-service-notice.module.css';

/**
 * Shown on every AI tool page when no AI service is configured: either the tools cannot write
 * (`not-configured`), or GEM's built-in stand-in answers with examples (`demo`, the embedded
 * defaults). The rest of the page keeps working. Setting names are for administrators (README,
 * "AI service"), not here.
 */
export function AiServiceNotice({ kind = 'not-configured' }: { kind?: 'not-configured' | 'demo' }) {
  const headingId = useId();
  return (
    <section className={styles.notice} aria-labelledby={headingId}>
      <AlertIcon className={styles.icon} />
      <div className={styles.text}>
        {kind === 'demo' ? (
          <>
            <h2 id={headingId} className={styles.title}>
              Demo answers: no AI service is configured
            </h2>
            <p>
              GEM answers with a built-in stand-in so that you can try its tools. Its answers are examples in
              Polish, not written from your content, and each one is marked &ldquo;{DEMO_ANSWER_TEXT}&rdquo;.
            </p>
            <p>To have GEM write from your content, ask your administrator to connect an AI service.</p>
          </>
        ) : (
          <>
            <h2 id={headingId} className={styles.title}>
              The AI service is not configured
            </h2>
            <p>
              GEM has no AI service set up yet, so it cannot write anything for now. You can still paste and
              edit your content here and reopen earlier outputs.
            </p>
            <p>Ask your administrator to connect an AI service.</p>
          </>
        )}
      </div>
    </section>
  );
}
