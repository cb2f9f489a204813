import type { CampaignActivity as ActivityEntry } from '@gem/contracts/campaigns';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardList } from '@/components/ui/card';
import { ListPanel, ListState } from '@/components/ui/list-panel';
import { formatDateTime } from '@/lib/format-date';

import { useCampaignActivity } from '../api/get-campaign-activity';
import { actionLabel } from '../campaign-labels';
import { problemText } from '../problem-text';
import styles from './campaign-details.module.css';

/** What happened to the campaign, who did it and when, newest first; asked for once opened. */
export function CampaignActivity({ campaignId }: { campaignId: string }) {
  const [open, setOpen] = useState(false);
  const activity = useCampaignActivity(campaignId, open);
  const listId = useId();
  const toggle = (
    <Button
      variant="secondary"
      className={styles.smallButton}
      aria-expanded={open}
      aria-controls={listId}
      onClick={() => setOpen((was) => !was)}
    >
      {open ? 'Hide activity' : 'Show activity'}
    </Button>
  );
  return (
    <ListPanel
      title="Activity"
      titleAside={toggle}
      description="Every change to the campaign: who, what and when."
    >
      <div id={listId} hidden={!open}>
        {open ? <ActivityList activity={activity} /> : null}
      </div>
    </ListPanel>
  );
}

function ActivityList({ activity }: { activity: ReturnType<typeof useCampaignActivity> }) {
  if (activity.isPending) return <ListState role="status">Loading the activity…</ListState>;
  if (activity.isError) {
    return (
      <ListState role="alert">
        <span>The activity could not be loaded. {problemText(activity.error, '')}</span>
        <Button variant="secondary" className={styles.smallButton} onClick={() => void activity.refetch()}>
          Try again
        </Button>
      </ListState>
    );
  }
  const entries = activity.data.activity;
  if (entries.length === 0) return <ListState>Nothing has happened yet.</ListState>;
  return (
    <CardList layout="stack" scroll ordered label="Activity" busy={activity.isFetching}>
      {entries.map((entry) => (
        <ActivityItem key={entry.id} entry={entry} />
      ))}
    </CardList>
  );
}

function ActivityItem({ entry }: { entry: ActivityEntry }) {
  return (
    <li>
      <Card size="compact" className={styles.activity}>
        <p>
          <strong>{actionLabel(entry.action)}</strong>
          {entry.detail ? <span className={styles.activityDetail}> · {entry.detail}</span> : null}
        </p>
        <p className={styles.muted}>
          {entry.actor.name} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
        </p>
      </Card>
    </li>
  );
}
