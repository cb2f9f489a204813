import {
  briefToastTexts,
  briefDataOfSystemMessage,
  type BriefMessage,
  type ChatSession,
} from '@gem/contracts/brief-creator';

import { Button } from '@/components/ui/button';
import { Card, CardList } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ArrowRightIcon, RefreshIcon } from '@/components/ui/icons';
import { formatDateTime } from '@/lib/format-date';

import { useChatSessions } from '../api/get-chat-sessions';
import { shortId, visibleMessageCount } from '../chat-entries';
import { useErrorToast } from '../use-error-toast';
import { UNTITLED_BRIEF } from '../use-brief-chat';
import shared from './brief-creator.module.css';
import styles from './brief-lists.module.css';

/** The campaign name of a session's latest brief data, when it has one that can be read. */
function campaignNameOf(messages: readonly BriefMessage[]): string {
  const latest = messages.filter((m) => m.role === 'system').sort((a, b) => b.order - a.order)[0];
  const data = latest ? briefDataOfSystemMessage(latest.content) : null;
  return data?.campaignName.trim() || UNTITLED_BRIEF;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Spec §2, tab 2: the unfinished sessions; a click resumes one in the chat. */
export function BriefSessions({
  onResume,
  activeSessionId,
}: {
  onResume: (session: ChatSession) => void;
  activeSessionId: string | null;
}) {
  const sessions = useChatSessions();
  useErrorToast(sessions, briefToastTexts.sessions);

  if (sessions.isPending)
    return (
      <EmptyState className={styles.listState}>
        <p>Loading sessions…</p>
      </EmptyState>
    );
  const list = sessions.data?.chatSessions ?? [];
  if (list.length === 0) {
    return (
      <EmptyState className={styles.listState}>
        <p>No unfinished sessions found.</p>
        {sessions.isError ? <RetryButton onRetry={() => void sessions.refetch()} /> : null}
      </EmptyState>
    );
  }
  return (
    <CardList label="Unfinished sessions">
      {list.map((session) => {
        const name = campaignNameOf(session.messages);
        const isActive = session.id === activeSessionId;
        return (
          <li key={session.id}>
            <Card
              as="button"
              selected={isActive}
              aria-current={isActive || undefined}
              aria-label={`Resume ${name}, session ${shortId(session.id)}`}
              onClick={() => onResume(session)}
            >
              <span className={styles.cardTop}>
                <span className={styles.shortId}>{shortId(session.id)}</span>
                {isActive ? <span className={styles.activeBadge}>In the chat</span> : null}
              </span>
              <span className={styles.cardTitle}>{name}</span>
              <span className={styles.cardMeta}>
                <time dateTime={session.lastActivityAt}>{formatDateTime(session.lastActivityAt)}</time>
                <span aria-hidden="true">·</span>
                <span>{plural(visibleMessageCount(session.messages), 'message')}</span>
              </span>
              <span className={styles.cardAction}>
                Resume
                <ArrowRightIcon />
              </span>
            </Card>
          </li>
        );
      })}
    </CardList>
  );
}

export function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <Button variant="secondary" className={shared.smallButton} onClick={onRetry}>
      <RefreshIcon />
      Try again
    </Button>
  );
}
