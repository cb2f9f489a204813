import { useId } from 'react';

import { AlertIcon } from '@/components/ui/icons';

import styles from './ai-service-notice.module.css';

/**
 * Shown on every AI tool page when no AI service is configured. The rest of the page keeps
 * working: content can be pasted and edited, and earlier outputs reopened.
 */
export function AiServiceNotice() {
  const headingId = useId();
  return (
    <section className={styles.notice} aria-labelledby={headingId}>
      <AlertIcon className={styles.icon} />
      <div className={styles.text}>
        <h2 id={headingId} className={styles.title}>
          The AI service is not configured
        </h2>
        <p>
          GEM has no AI service set up yet, so it cannot write anything for now. You can still paste and edit
          your content here and reopen earlier outputs.
        </p>
        <p>
          To set it up, an administrator sets <code>GEM_AI_PROVIDER</code> (<code>openai</code>,{' '}
          <code>azure</code>, <code>anthropic</code> or <code>openai-compatible</code>),{' '}
          <code>GEM_AI_MODEL</code> and <code>GEM_AI_API_KEY</code> (plus <code>GEM_AI_BASE_URL</code> for an
          OpenAI-compatible server) and restarts GEM; see the README, &ldquo;AI service&rdquo;.
        </p>
      </div>
    </section>
  );
}
