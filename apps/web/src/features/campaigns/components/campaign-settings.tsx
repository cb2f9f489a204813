import { LANDING_URL_MAX, type Campaign } from '@gem/contracts/campaigns';
import { useId } from 'react';

import { Panel } from '@/components/ui/panel';

import { canEdit } from '../campaign-labels';
import { CampaignEditors } from './campaign-editors';
import { CampaignSharing } from './campaign-sharing';
import styles from './campaign-details.module.css';
import { SettingField } from './setting-field';

/**
 * Who may see the campaign and work on it (its owner decides), and what it is handed over with:
 * the CRM campaign and the landing page (its owner and editors set them).
 */
export function CampaignSettings({ campaign }: { campaign: Campaign }) {
  const headingId = useId();
  const editable = canEdit(campaign.role);
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        Settings
      </h2>
      <CampaignSharing campaign={campaign} />
      <CampaignEditors campaign={campaign} />
      <div className={styles.settingGroup}>
        <h3 className={styles.groupTitle}>Hand-over</h3>
        <SettingField
          campaignId={campaign.id}
          name="crmCampaignId"
          label="CRM campaign ID"
          hint="The 18-character ID of the campaign in the CRM."
          value={campaign.crmCampaignId}
          editable={editable}
          maxLength={18}
        />
        <SettingField
          campaignId={campaign.id}
          name="landingUrl"
          label="Landing page"
          hint="A whole web address, such as https://www.example.com/webinar."
          value={campaign.landingUrl}
          editable={editable}
          maxLength={LANDING_URL_MAX}
          type="url"
        />
      </div>
    </Panel>
  );
}
