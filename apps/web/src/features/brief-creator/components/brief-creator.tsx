import type { ChatSession } from '@gem/contracts/brief-creator';
import { useSearchParams } from 'react-router';

import { Split } from '@/components/ui/split';
import { TabList, TabPanel, type TabItem } from '@/components/ui/tabs';
import { AiServiceNotice } from '@/lib/ai/components/ai-service-notice';
import { useAiNotConfigured } from '@/lib/ai/get-ai-status';

import { useBriefChat } from '../use-brief-chat';
import { BriefChat } from './brief-chat';
import styles from './brief-creator.module.css';
import { BriefPreview } from './brief-preview';
import { BriefSessions } from './brief-sessions';
import { FinishedBriefs } from './finished-briefs';

export type BriefCreatorTab = 'creator' | 'sessions' | 'finished';

const tabs: readonly TabItem<BriefCreatorTab>[] = [
  { id: 'creator', label: 'Brief Creator' },
  { id: 'sessions', label: 'Brief Sessions' },
  { id: 'finished', label: 'Finished Briefs' },
];

const isTab = (value: string | null): value is BriefCreatorTab => tabs.some((tab) => tab.id === value);

/**
 * The brief creator (spec §2): the chat with its live brief, the unfinished sessions and the
 * finished briefs, as three tabs. The open tab is in the URL (`?tab=sessions`), so the details
 * page can link back to the list it came from. The chat keeps its state while another tab shows.
 */
export function BriefCreator() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: BriefCreatorTab = isTab(requested) ? requested : 'creator';
  const chat = useBriefChat();
  const notConfigured = useAiNotConfigured();

  function select(next: BriefCreatorTab) {
    setParams(next === 'creator' ? {} : { tab: next }, { replace: true, preventScrollReset: true });
  }

  function resume(session: ChatSession) {
    chat.resume(session);
    select('creator');
  }

  return (
    <div className={styles.root}>
      {notConfigured ? <AiServiceNotice /> : null}
      <div>
        <TabList label="Brief creator" items={tabs} selected={tab} onSelect={select} idPrefix="brief" />
        <TabPanel idPrefix="brief" id="creator" hidden={tab !== 'creator'}>
          <Split align="start" className={styles.workspace}>
            <BriefPreview brief={chat.brief} onFieldChange={chat.setField} locked={chat.isBusy} />
            <BriefChat chat={chat} aiUnavailable={notConfigured} />
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
