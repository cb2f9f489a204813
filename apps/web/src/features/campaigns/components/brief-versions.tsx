import { briefFieldLabels } from '@gem/contracts/brief-creator';
import type { CampaignBriefVersion } from '@gem/contracts/campaigns';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardList } from '@/components/ui/card';
import { ListPanel, ListState } from '@/components/ui/list-panel';
import { formatDateTime } from '@/lib/format-date';

import { useCampaignBriefVersions } from '../api/get-campaign-brief-versions';
import { changedFields } from '../brief-values';
import { problemText } from '../problem-text';
import styles from './campaign-details.module.css';

/** Every version of the brief, newest first: who saved it, when, and which fields it changed. */
export function BriefVersions({ campaignId }: { campaignId: string }) {
  const versions = useCampaignBriefVersions(campaignId);
  const list = versions.data?.versions ?? [];
  let body;
  if (versions.isPending) {
    body = <ListState role="status">Loading the versions…</ListState>;
  } else if (versions.isError) {
    body = (
      <ListState role="alert">
        <span>The versions could not be loaded. {problemText(versions.error, '')}</span>
        <Button variant="secondary" className={styles.smallButton} onClick={() => void versions.refetch()}>
          Try again
        </Button>
      </ListState>
    );
  } else {
    body = (
      <CardList layout="stack" scroll ordered label="Brief versions" busy={versions.isFetching}>
        {list.map((version, index) => (
          <VersionCard
            key={version.version}
            version={version}
            before={list[index + 1]}
            newest={index === 0}
          />
        ))}
      </CardList>
    );
  }
  return (
    <ListPanel title="Brief versions" description="Each save of the brief is kept as a new version.">
      {body}
    </ListPanel>
  );
}

function VersionCard({
  version,
  before,
  newest,
}: {
  version: CampaignBriefVersion;
  before: CampaignBriefVersion | undefined;
  newest: boolean;
}) {
  const changed = before ? changedFields(before.brief, version.brief) : [];
  return (
    <li>
      <Card size="compact" as="article" aria-label={`Version ${version.version}`}>
        <div className={styles.cardTop}>
          <h3 className={styles.cardTitle}>Version {version.version}</h3>
          {newest ? (
            <Badge tone="brand" size="small">
              Current
            </Badge>
          ) : null}
        </div>
        <p className={styles.muted}>
          {version.author.name} ·{' '}
          <time dateTime={version.createdAt}>{formatDateTime(version.createdAt)}</time>
        </p>
        <p className={styles.small}>
          {before
            ? changed.length > 0
              ? `Changed: ${changed.map((field) => briefFieldLabels[field]).join(', ')}`
              : 'Saved without changes.'
            : 'The brief the campaign began with.'}
        </p>
      </Card>
    </li>
  );
}
