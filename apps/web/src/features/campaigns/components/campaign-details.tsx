import { Badge } from '@/components/ui/badge';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Button, ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Notice } from '@/components/ui/notice';
import { Split } from '@/components/ui/split';
import { StatusPanel } from '@/components/ui/status-panel';

import { useCampaign } from '../api/get-campaign';
import { CampaignAssets } from '../assets/campaign-assets';
import { CampaignAudience } from '../audience/campaign-audience';
import { campaignsLink } from '../campaign-paths';
import { isStatus, problemText } from '../problem-text';
import { BriefVersions } from './brief-versions';
import { CampaignActivity } from './campaign-activity';
import { CampaignBrief } from './campaign-brief';
import { CampaignHandover } from './campaign-handover';
import styles from './campaign-details.module.css';
import { CampaignHeader } from './campaign-header';
import { CampaignSettings } from './campaign-settings';

const trail = (name: string) => [{ label: 'Campaigns', to: campaignsLink }, { label: name }];

/**
 * A campaign's page (issue 29): its name, status and the user's role; its brief in versions; who
 * may see and change it and what it is handed over with; its assets; what happened to it. A
 * reader sees all of it, read only.
 */
export function CampaignDetails({ campaignId }: { campaignId: string }) {
  const query = useCampaign(campaignId);

  if (query.isPending) {
    return (
      <div className={styles.page}>
        <Breadcrumbs trail={trail('Campaign')} />
        <EmptyState className={styles.state} role="status">
          <p>Loading the campaign…</p>
        </EmptyState>
      </div>
    );
  }
  if (!query.data) {
    if (isStatus(query.error, 404)) return <CampaignNotFound />;
    return (
      <div className={styles.page}>
        <Breadcrumbs trail={trail('Campaign')} />
        <EmptyState className={styles.state} tone="problem" role="alert">
          <h1 className={styles.stateTitle}>The campaign could not be loaded.</h1>
          <p>{problemText(query.error, 'Please try again.')}</p>
          <Button variant="secondary" className={styles.smallButton} onClick={() => void query.refetch()}>
            Try again
          </Button>
        </EmptyState>
      </div>
    );
  }

  const campaign = query.data;
  return (
    <div className={styles.page}>
      <Breadcrumbs trail={trail(campaign.name)} />
      <CampaignHeader campaign={campaign} />
      {campaign.role === 'reader' ? (
        <Notice>
          {campaign.owner.name} shared this campaign with the team: you can read it. Duplicate it to work on a
          copy of your own.
        </Notice>
      ) : null}
      <Split align="start" className={styles.columns}>
        <CampaignBrief campaign={campaign} />
        <div id="campaign-settings" className={styles.aside}>
          <CampaignSettings campaign={campaign} />
          <BriefVersions campaignId={campaign.id} />
        </div>
      </Split>
      <CampaignAssets campaign={campaign} />
      <CampaignAudience campaign={campaign} />
      <CampaignHandover campaign={campaign} />
      <CampaignActivity campaignId={campaign.id} />
    </div>
  );
}

/** No such campaign, or one the user may not see: the server answers both alike (404). */
function CampaignNotFound() {
  return (
    <StatusPanel
      kicker={<Badge tone="brand">Not found</Badge>}
      title="Campaign not found"
      imageSrc="/images/not-found.svg"
      imageAlt=""
      actions={
        <ButtonLink to={campaignsLink} variant="secondary">
          See all campaigns
        </ButtonLink>
      }
    >
      <p>
        There is no campaign at this address that you can open. It may have been deleted, its owner may not
        have shared it with you, or the link may have a typo.
      </p>
    </StatusPanel>
  );
}
