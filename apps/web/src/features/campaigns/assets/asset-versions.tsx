import type { AssetVersion, CampaignAssetDetails } from '@gem/contracts/campaign-assets';
import { campaignChannels, type CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useId, useMemo, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/fields';
import { ListState } from '@/components/ui/list-panel';
import { formatDateTime } from '@/lib/format-date';

import { problemText } from '../problem-text';
import { useCampaignAsset } from './api/get-campaign-asset';
import { useRestoreAssetVersion } from './api/restore-asset-version';
import { versionKindLabels } from './asset-labels';
import styles from './campaign-assets.module.css';
import { VersionDiff } from './version-diff-view';

type AssetVersionsProps = {
  campaignId: string;
  channel: CampaignChannelId;
  editable: boolean;
  announce: (message: string) => void;
};

/**
 * Every version of an asset, newest first (who made it, how, when, with what instruction), any
 * two compared word by word, and any old one restored as the newest.
 */
export function AssetVersions({ campaignId, channel, editable, announce }: AssetVersionsProps) {
  const details = useCampaignAsset(campaignId, channel, true);
  const restore = useRestoreAssetVersion(campaignId, channel);
  const headingId = useId();
  const { label } = campaignChannels[channel];

  let body;
  if (details.isPending) {
    body = <ListState role="status">Loading the versions…</ListState>;
  } else if (details.isError) {
    body = (
      <ListState role="alert">
        <span>The versions could not be loaded. {problemText(details.error, '')}</span>
        <Button variant="secondary" className={styles.smallButton} onClick={() => void details.refetch()}>
          Try again
        </Button>
      </ListState>
    );
  } else {
    const asset = details.data;
    body = (
      <>
        <ol className={styles.versionList} aria-label={`Versions of the ${label}`}>
          {asset.versions.map((version) => (
            <VersionItem
              key={version.version}
              version={version}
              current={version.version === asset.version}
              restoring={restore.isPending && restore.variables === version.version}
              canRestore={editable && version.version !== asset.version && !restore.isPending}
              onRestore={() =>
                restore.mutate(version.version, {
                  onSuccess: (restored) =>
                    announce(`Version ${version.version} restored as version ${restored.version}.`),
                })
              }
            />
          ))}
        </ol>
        {restore.error ? (
          <p className={styles.fieldError} role="alert">
            {problemText(restore.error, 'The version could not be restored. Please try again.')}
          </p>
        ) : null}
        <CompareVersions asset={asset} />
      </>
    );
  }
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h4 id={headingId} className={styles.panelTitle}>
          Versions
        </h4>
        <p className={styles.muted}>
          Every generation and every save is kept. Restoring one makes it the newest.
        </p>
      </div>
      {body}
    </section>
  );
}

function VersionItem({
  version,
  current,
  restoring,
  canRestore,
  onRestore,
}: {
  version: AssetVersion;
  current: boolean;
  restoring: boolean;
  canRestore: boolean;
  onRestore: () => void;
}) {
  const instruction = version.provenance?.instruction;
  return (
    <li className={styles.versionItem} aria-label={`Version ${version.version}`}>
      <div className={styles.versionText}>
        <p className={styles.versionTitle}>
          <span>Version {version.version}</span>
          <Badge size="small" tone={version.kind === 'conflict' ? 'brand' : 'neutral'}>
            {versionKindLabels[version.kind]}
          </Badge>
          {current ? (
            <Badge size="small" tone="success">
              Current
            </Badge>
          ) : null}
        </p>
        <p className={styles.muted}>
          {version.author.name} ·{' '}
          <time dateTime={version.createdAt}>{formatDateTime(version.createdAt)}</time>
        </p>
        {instruction ? <p className={styles.instruction}>Instruction: {instruction}</p> : null}
      </div>
      {canRestore || restoring ? (
        <Button
          variant="secondary"
          className={styles.smallButton}
          disabled={restoring}
          aria-label={`Restore version ${version.version}`}
          onClick={onRestore}
        >
          {restoring ? 'Restoring…' : 'Restore'}
        </Button>
      ) : null}
    </li>
  );
}

/** Any two versions, the older one's words struck through where the newer one changed them. */
function CompareVersions({ asset }: { asset: CampaignAssetDetails }) {
  const numbers = asset.versions.map((v) => v.version);
  const [from, setFrom] = useState(numbers[1] ?? numbers[0] ?? 0);
  const [to, setTo] = useState(numbers[0] ?? 0);
  const options = numbers.map((n) => ({ value: n, label: `Version ${n}` }));
  const older = asset.versions.find((v) => v.version === Math.min(from, to));
  const newer = asset.versions.find((v) => v.version === Math.max(from, to));
  const headingId = useId();
  const pair = useMemo(() => (older && newer ? { older, newer } : null), [older, newer]);

  if (numbers.length < 2) {
    return <p className={styles.muted}>There is one version so far: nothing to compare yet.</p>;
  }
  return (
    <section className={styles.compare} aria-labelledby={headingId}>
      <h5 id={headingId} className={styles.fieldLabel}>
        Compare two versions
      </h5>
      <div className={styles.comparePickers}>
        <SelectField label="From" value={from} options={options} onValueChange={setFrom} />
        <SelectField label="To" value={to} options={options} onValueChange={setTo} />
      </div>
      {pair ? <VersionDiff older={pair.older} newer={pair.newer} /> : null}
    </section>
  );
}
