import type { BriefData } from '@gem/contracts/brief-creator';
import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormattedOutput } from '@/components/ui/formatted-output';
import { AlertIcon, CheckIcon, RefreshIcon } from '@/components/ui/icons';

import type { AssistantEntry, ChatEntry } from '../chat-entries';
import styles from './brief-chat.module.css';
import shared from './brief-creator.module.css';

/** What a bubble of the live chat can do (a finished brief's conversation is read only). */
export type BubbleActions = {
  /** The brief as shown: whether a proposal or a recommendation is in it already. */
  brief: BriefData;
  /** A turn is running: nothing else starts. */
  busy: boolean;
  /** This failed answer is the chat's last: it offers Retry. */
  canRetry: boolean;
  onRetry: (entry: AssistantEntry) => void;
  onApplyTargetAudience: (text: string) => void;
  onKeepTargetAudience: (entryId: string) => void;
  onAddRecommendations: (items: readonly string[]) => void;
};

const same = (a: string, b: string) => a.trim() === b.trim();

/** One message of a brief conversation, in the chat and on a finished brief's page. */
export function ChatBubble({ entry, actions }: { entry: ChatEntry; actions?: BubbleActions }) {
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
          <div className={styles.failedBody}>
            <p className={styles.failedText}>{entry.text}</p>
            {entry.detail ? <p className={styles.failedDetail}>{entry.detail}</p> : null}
            {actions?.canRetry ? (
              <Button
                variant="secondary"
                className={shared.smallButton}
                disabled={actions.busy}
                onClick={() => actions.onRetry(entry)}
              >
                <RefreshIcon />
                Retry
              </Button>
            ) : null}
          </div>
        </div>
      </li>
    );
  }
  const isTargetAudience = entry.targetAudience !== undefined || entry.kind === 'targetAudience';
  return (
    <li className={styles.assistantRow}>
      <div className={styles.bubbleAssistant} aria-busy={entry.streaming || undefined}>
        <span className="visually-hidden">Assistant: </span>
        {entry.demo ? (
          // Every answer of the built-in stand-in says what it is (issue 27), as in the writing tools.
          <p className={styles.demoMark}>
            <Badge>{DEMO_ANSWER_TEXT}</Badge>
          </p>
        ) : null}
        {entry.recommendations ? (
          <Recommendations items={entry.recommendations} actions={actions} />
        ) : entry.streaming && entry.text === '' ? (
          <p className={styles.typing}>
            <span className={styles.dot} />
            <span className={styles.dot} />
            <span className={styles.dot} />
            <span className="visually-hidden">The assistant is writing</span>
          </p>
        ) : isTargetAudience ? (
          <TargetAudience entry={entry} actions={actions} />
        ) : (
          <FormattedOutput text={entry.text} className={styles.answer} />
        )}
      </div>
    </li>
  );
}

/**
 * 'Generate target audience' (issue 27): the answer says what it is; a proposal that differs
 * from the user's own text stands beside it, with Apply and Keep mine.
 */
function TargetAudience({ entry, actions }: { entry: AssistantEntry; actions: BubbleActions | undefined }) {
  const proposal = entry.targetAudience ?? entry.text;
  const title = <p className={styles.bubbleTitle}>Proposed target audience</p>;
  if (!actions || entry.targetAudience === undefined) {
    return (
      <>
        {title}
        <FormattedOutput text={proposal} className={styles.answer} />
      </>
    );
  }
  const own = actions.brief.targetAudience;
  if (same(own, proposal)) {
    return (
      <>
        {title}
        <FormattedOutput text={proposal} className={styles.answer} />
        <p className={styles.bubbleNote}>
          <CheckIcon />
          In the brief as its target audience.
        </p>
      </>
    );
  }
  return (
    <>
      {title}
      <div className={styles.compare}>
        <section className={styles.compareColumn} aria-label="Proposal">
          <p className={styles.compareLabel}>Proposal</p>
          <FormattedOutput text={proposal} className={styles.answer} />
        </section>
        <section className={styles.compareColumn} aria-label="Your text">
          <p className={styles.compareLabel}>Your text</p>
          {own.trim() === '' ? (
            <p className={shared.notSpecified}>Not specified yet</p>
          ) : (
            <p className={styles.userText}>{own}</p>
          )}
        </section>
      </div>
      {entry.kept ? (
        <p className={styles.bubbleNote}>You kept your text.</p>
      ) : (
        <div className={styles.bubbleButtons}>
          <Button
            variant="primary"
            className={shared.smallButton}
            disabled={actions.busy}
            onClick={() => actions.onApplyTargetAudience(proposal)}
          >
            Apply
          </Button>
          <Button
            variant="secondary"
            className={shared.smallButton}
            disabled={actions.busy}
            onClick={() => actions.onKeepTargetAudience(entry.id)}
          >
            Keep mine
          </Button>
        </div>
      )}
    </>
  );
}

/** 'Generate recommendations': a list, each item one click from the brief's Recommendations. */
function Recommendations({
  items,
  actions,
}: {
  items: readonly string[];
  actions: BubbleActions | undefined;
}) {
  const inBrief = (item: string) => actions?.brief.recommendations.some((had) => same(had, item)) ?? false;
  const notAdded = items.filter((item) => !inBrief(item));
  return (
    <>
      <p className={styles.bubbleTitle}>Recommendations</p>
      <ul className={styles.recommendations} aria-label="Recommendations">
        {items.map((item, index) => (
          <li key={index} className={actions ? styles.recommendation : undefined}>
            <span>{item}</span>
            {!actions ? null : inBrief(item) ? (
              <span className={styles.inBrief}>
                <CheckIcon />
                In the brief
              </span>
            ) : (
              <button
                type="button"
                className={styles.addToBrief}
                disabled={actions.busy}
                aria-label={`Add to brief: ${item}`}
                onClick={() => actions.onAddRecommendations([item])}
              >
                Add to brief
              </button>
            )}
          </li>
        ))}
      </ul>
      {actions && notAdded.length > 1 ? (
        <div className={styles.bubbleButtons}>
          <Button
            variant="secondary"
            className={shared.smallButton}
            disabled={actions.busy}
            onClick={() => actions.onAddRecommendations(notAdded)}
          >
            Add all to brief
          </Button>
        </div>
      ) : null}
    </>
  );
}
