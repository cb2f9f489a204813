import { FormattedOutput } from '@/components/ui/formatted-output';
import { AlertIcon } from '@/components/ui/icons';

import type { ChatEntry } from '../chat-entries';
import styles from './brief-creator.module.css';

/** One message of a brief conversation, in the chat and on a finished brief's page. */
export function ChatBubble({ entry }: { entry: ChatEntry }) {
  if (entry.role === 'user') {
    return (
      <li className={styles.userRow}>
        <div className={styles.bubbleUser}>
          <span className="visually-hidden">You: </span>
          <p className={styles.userText}>{entry.text}</p>
        </div>
      </li>
    );
  }
  if (entry.failed) {
    return (
      <li className={styles.assistantRow}>
        <div className={styles.bubbleFailed} data-failed="true">
          <AlertIcon className={styles.failedIcon} />
          <div>
            <p className={styles.failedText}>{entry.text}</p>
            {entry.detail ? <p className={styles.failedDetail}>{entry.detail}</p> : null}
          </div>
        </div>
      </li>
    );
  }
  return (
    <li className={styles.assistantRow}>
      <div className={styles.bubbleAssistant} aria-busy={entry.streaming || undefined}>
        <span className="visually-hidden">Assistant: </span>
        {entry.recommendations ? (
          <>
            <p className={styles.recommendationsTitle}>Recommendations</p>
            <ul className={styles.recommendations} aria-label="Recommendations">
              {entry.recommendations.map((item, index) => (
                <li key={index}>{item}</li>
              ))}
            </ul>
          </>
        ) : entry.streaming && entry.text === '' ? (
          <p className={styles.typing}>
            <span className={styles.dot} />
            <span className={styles.dot} />
            <span className={styles.dot} />
            <span className="visually-hidden">The assistant is writing</span>
          </p>
        ) : (
          <FormattedOutput text={entry.text} className={styles.answer} />
        )}
      </div>
    </li>
  );
}
