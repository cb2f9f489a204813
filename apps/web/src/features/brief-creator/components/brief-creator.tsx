import type { ChatSession, ChatSessionDetails } from '@gem/contracts/brief-creator';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router';

import { Split } from '@/components/ui/split';
import { TabList, TabPanel, type TabItem } from '@/components/ui/tabs';
import { AiServiceNotice } from '@/lib/ai/components/ai-service-notice';
import { AiAllowanceLine } from '@/lib/ai/components/ai-allowance-line';
import { useAiNotConfigured } from '@/lib/ai/get-ai-status';

import { getChatSession } from '../api/get-chat-session';
import { chatSessionsQueryOptions } from '../api/get-chat-sessions';
import { isSessionId, lastSession, NEW_CHAT, rememberLastSession } from '../last-session';
import { useBriefChat } from '../use-brief-chat';
import { BriefChat } from './brief-chat';
import styles from './brief-creator.module.css';
import { BriefPreview } from './brief-preview';
import { BriefSessions } from './brief-sessions';
import { FinishedBriefs } from './finished-briefs';
import type { StartedFromState } from '../use-finished-brief-actions';

export type BriefCreatorTab = 'creator' | 'sessions' | 'finished';

const tabs: readonly TabItem<BriefCreatorTab>[] = [
  { id: 'creator', label: 'Brief Creator' },
  { id: 'sessions', label: 'Brief Sessions' },
  { id: 'finished', label: 'Finished Briefs' },
];

const isTab = (value: string | null): value is BriefCreatorTab => tabs.some((tab) => tab.id === value);

const startedFromOf = (state: unknown): StartedFromState['startedFrom'] | null =>
  (state as Partial<StartedFromState> | null)?.startedFrom ?? null;

const asDetails = (session: ChatSession): ChatSessionDetails => ({
  ...session,
  finishedAt: null,
  finishedBriefId: null,
  finishedBriefTitle: null,
});

/**
 * The chat to open when the URL names none (issue 27): the one this browser had open last while
 * it is still open, else the user's most recently active session, else a new chat.
 */
async function lastOpenSession(
  queryClient: QueryClient,
): Promise<{ id: string; details?: ChatSessionDetails }> {
  const remembered = lastSession();
  if (remembered === NEW_CHAT) return { id: NEW_CHAT };
  if (remembered) {
    const details = await getChatSession(remembered).catch(() => null);
    if (details && !details.finishedAt) return { id: remembered, details };
  }
  const list = await queryClient.fetchQuery(chatSessionsQueryOptions).catch(() => null);
  const newest = list?.chatSessions[0];
  return newest ? { id: newest.id, details: asDetails(newest) } : { id: NEW_CHAT };
}

/**
 * The brief creator (spec §2): the chat with its live brief, the unfinished sessions and the
 * finished briefs, as three tabs. The URL names the open tab (`?tab=sessions`) and the open chat
 * (`?session=<id>`, or `new`), so a reload, a link or Back leads to it; without one the last open
 * chat comes back. The chat keeps its state while another tab shows.
 */
export function BriefCreator({ heading }: { heading: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const requested = params.get('tab');
  const tab: BriefCreatorTab = isTab(requested) ? requested : 'creator';
  const sessionParam = params.get('session');
  const named = sessionParam === NEW_CHAT || isSessionId(sessionParam) ? sessionParam : null;
  const [dismissedNotice, setDismissedNotice] = useState<string | null>(null);

  function showSession(id: string, how: 'push' | 'replace') {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('session', id);
        // A chat opened from a list shows in the chat's tab.
        if (how === 'push') next.delete('tab');
        return next;
      },
      { replace: how === 'replace', preventScrollReset: true },
    );
  }

  const chat = useBriefChat({
    onSessionStarted: (id) => showSession(id, 'replace'),
    onAccepted: () => showSession(NEW_CHAT, 'replace'),
  });
  const notConfigured = useAiNotConfigured();

  // Only a change of the URL's session opens another chat; the chat's own changes write the URL.
  const follow = useEffectEvent((target: string) => {
    if (target === NEW_CHAT) {
      if (chat.currentSessionId() !== null || chat.loading) chat.newChat();
    } else if (chat.currentSessionId() !== target) {
      void chat.open(target);
    }
  });
  const reopen = useEffectEvent(({ id, details }: { id: string; details?: ChatSessionDetails }) => {
    if (details) void chat.open(id, details);
    showSession(id, 'replace');
  });

  // The URL leads: Back, a link or a reload open the chat it names; without one, the last open chat.
  useEffect(() => {
    if (named !== null) {
      rememberLastSession(named);
      follow(named);
      return;
    }
    let cancelled = false;
    void lastOpenSession(queryClient).then((found) => {
      if (!cancelled) reopen(found);
    });
    return () => {
      cancelled = true;
    };
  }, [named, queryClient]);

  function select(next: BriefCreatorTab) {
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next === 'creator') updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  function resume(session: ChatSession) {
    chat.resume(session);
    showSession(session.id, 'push');
  }

  const startedFrom = startedFromOf(location.state);
  const notice =
    startedFrom && startedFrom.sessionId === chat.sessionId && dismissedNotice !== startedFrom.sessionId
      ? {
          text: `This chat starts from the finished brief “${startedFrom.title}”. Change what you need, then accept it as a new brief.`,
          onDismiss: () => setDismissedNotice(startedFrom.sessionId),
        }
      : null;

  return (
    <div className={styles.root}>
      {notConfigured ? <AiServiceNotice /> : null}
      <AiAllowanceLine />
      <div>
        <div className={styles.top}>
          {heading}
          <TabList label="Brief creator" items={tabs} selected={tab} onSelect={select} idPrefix="brief" />
        </div>
        <TabPanel idPrefix="brief" id="creator" hidden={tab !== 'creator'}>
          <Split align="start" className={styles.workspace}>
            <BriefPreview
              brief={chat.brief}
              briefStyle={chat.briefStyle}
              onBriefChange={chat.reviseBrief}
              onFieldChange={chat.setField}
              locked={chat.isBusy || chat.loading || named === null}
            />
            <BriefChat
              chat={chat}
              aiUnavailable={notConfigured}
              resolving={named === null}
              onNewChat={() => showSession(NEW_CHAT, 'push')}
              notice={notice}
            />
          </Split>
        </TabPanel>
        <TabPanel idPrefix="brief" id="sessions" hidden={tab !== 'sessions'}>
          {tab === 'sessions' ? <BriefSessions onResume={resume} activeSessionId={chat.sessionId} /> : null}
        </TabPanel>
        <TabPanel idPrefix="brief" id="finished" hidden={tab !== 'finished'}>
          {tab === 'finished' ? <FinishedBriefs /> : null}
        </TabPanel>
      </div>
    </div>
  );
}
