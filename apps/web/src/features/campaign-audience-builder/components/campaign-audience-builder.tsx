import { MANUAL_TAB_TEXT } from '@gem/contracts/campaign-audience-builder';
import { useState, type ReactNode } from 'react';

import { TabList, TabPanel, type TabItem } from '@/components/ui/tabs';
import { ReturnToMenu, ToolStack } from '@/components/ui/tool-layout';
import { AiServiceNotice } from '@/lib/ai/components/ai-service-notice';
import { AiAllowanceLine } from '@/lib/ai/components/ai-allowance-line';
import { useAiNotConfigured, useDemoAi } from '@/lib/ai/get-ai-status';

import type { ReportAction } from '../report-action';
import { AutomaticBuilder } from './automatic-builder';
import styles from './campaign-audience-builder.module.css';

type Tab = 'automatic' | 'manual';

const tabs: readonly TabItem<Tab>[] = [
  { id: 'automatic', label: 'Automatic' },
  { id: 'manual', label: 'Manual' },
];

/**
 * The campaign audience builder (spec §2): Automatic builds segments and reports from a campaign
 * and a marketing goal; Manual is announced only. The Automatic tab keeps its inputs and results
 * while Manual shows.
 */
export function CampaignAudienceBuilder({
  notice,
  reportAction,
}: {
  /** What the page says above the tabs (the campaign it was opened from). */
  notice?: ReactNode;
  /** What the page adds to each report (Save to campaign). */
  reportAction?: ReportAction;
} = {}) {
  const [tab, setTab] = useState<Tab>('automatic');
  const notConfigured = useAiNotConfigured();
  const demo = useDemoAi();
  return (
    <ToolStack>
      {notConfigured ? <AiServiceNotice /> : demo ? <AiServiceNotice kind="demo" /> : null}
      <AiAllowanceLine />
      {notice}
      <div>
        <TabList label="Audience builder" items={tabs} selected={tab} onSelect={setTab} idPrefix="audience" />
        <TabPanel idPrefix="audience" id="automatic" hidden={tab !== 'automatic'}>
          <AutomaticBuilder reportAction={reportAction} />
        </TabPanel>
        <TabPanel idPrefix="audience" id="manual" hidden={tab !== 'manual'}>
          <div className={styles.manual}>
            <p className={styles.manualText}>{MANUAL_TAB_TEXT}</p>
            <p className={styles.muted}>
              Building a segment by hand will come here. Until then, the Automatic tab builds one from a
              campaign.
            </p>
          </div>
        </TabPanel>
      </div>
      <ReturnToMenu />
    </ToolStack>
  );
}
