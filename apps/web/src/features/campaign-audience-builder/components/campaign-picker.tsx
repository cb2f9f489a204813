import type { CampaignSummary } from '@gem/contracts/campaign-audience-builder';
import { useDeferredValue, useId, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardList } from '@/components/ui/card';
import { TextInput } from '@/components/ui/fields';
import fieldStyles from '@/components/ui/fields.module.css';
import { CheckIcon } from '@/components/ui/icons';
import { ListPanel, ListState } from '@/components/ui/list-panel';

import { useCampaigns } from '../api/get-campaigns';
import { formatDay } from '../format';
import styles from './campaign-audience-builder.module.css';

type CampaignPickerProps = {
  /** The Campaign ID field's value: its campaign is marked as chosen. */
  selectedId: string;
  onPick: (id: string) => void;
};

/**
 * Recent campaigns of the CRM, searchable by name or id; choosing one fills the Campaign ID, so
 * a new user can try the tool at once. The embedded demo CRM's campaigns say they are samples.
 */
export function CampaignPicker({ selectedId, onPick }: CampaignPickerProps) {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const campaigns = useCampaigns(deferred);
  const list = campaigns.data?.campaigns ?? [];
  const searching = search.trim() !== '';

  return (
    <ListPanel
      frame="framed"
      title="Recent campaigns"
      titleAside={campaigns.data?.sample ? <Badge tone="brand">Sample data</Badge> : null}
      description={
        campaigns.data?.sample
          ? 'GEM’s demo CRM: every campaign and contact here is fictional. Choose one to try the tool.'
          : 'Choose a campaign to fill in its id.'
      }
    >
      <div className={fieldStyles.field}>
        <label htmlFor={searchId} className="visually-hidden">
          Search campaigns
        </label>
        <TextInput
          id={searchId}
          type="search"
          placeholder="Search by name or id"
          value={search}
          maxLength={100}
          autoComplete="off"
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {campaigns.isError && !campaigns.data ? (
        <ListState>
          <p>The campaigns could not be loaded. You can still paste a Campaign ID.</p>
          <Button variant="secondary" onClick={() => void campaigns.refetch()}>
            Try again
          </Button>
        </ListState>
      ) : !campaigns.data ? (
        <ListState role="status">
          <p>Loading campaigns…</p>
        </ListState>
      ) : list.length === 0 ? (
        <ListState role="status">
          <p>{searching ? `No campaign matches “${search.trim()}”.` : 'The CRM has no campaigns yet.'}</p>
        </ListState>
      ) : (
        <CardList
          layout="stack"
          scroll
          label={searching ? `Campaigns matching ${search.trim()}` : 'Recent campaigns'}
          busy={campaigns.isFetching}
        >
          {list.map((campaign) => (
            <li key={campaign.id}>
              <CampaignOption
                campaign={campaign}
                chosen={campaign.id === selectedId}
                onPick={() => onPick(campaign.id)}
              />
            </li>
          ))}
        </CardList>
      )}
    </ListPanel>
  );
}

function CampaignOption({
  campaign,
  chosen,
  onPick,
}: {
  campaign: CampaignSummary;
  chosen: boolean;
  onPick: () => void;
}) {
  const day = formatDay(campaign.startDate);
  return (
    <Card
      as="button"
      size="compact"
      selected={chosen}
      className={styles.campaignOption}
      aria-pressed={chosen}
      onClick={onPick}
    >
      <span className={styles.campaignName}>{campaign.name}</span>
      <span className={styles.campaignMeta}>
        {campaign.type ? <span>{campaign.type}</span> : null}
        {day ? <span>{day}</span> : null}
        <span className={styles.mono}>{campaign.id}</span>
      </span>
      {chosen ? <CheckIcon className={styles.campaignCheck} /> : null}
    </Card>
  );
}
