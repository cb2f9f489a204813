import {
  campaignChannelIds,
  campaignChannels,
  channelsOfBrief,
  type CampaignChannelId,
} from '@gem/contracts/campaign-channels';
import type { Campaign } from '@gem/contracts/campaigns';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { SelectInput } from '@/components/ui/fields';
import { ListState } from '@/components/ui/list-panel';
import { AiServiceNotice } from '@/lib/ai/components/ai-service-notice';
import { useAiNotConfigured } from '@/lib/ai/get-ai-status';

import { problemText } from '../problem-text';
import { useCampaignAssets } from './api/get-campaign-assets';
import { AssetCard } from './asset-card';
import styles from './campaign-assets.module.css';
import { GenerateAll } from './generate-all';

/**
 * The campaign's assets (issue 29): a card per channel the brief calls for, and any other channel
 * the campaign has an asset for or the user adds; each made from the brief by the channel's
 * writing tool, then worked on. Readers see the texts, counts, provenance and versions only.
 */
export function CampaignAssets({ campaign }: { campaign: Campaign }) {
  const assets = useCampaignAssets(campaign.id);
  const [added, setAdded] = useState<CampaignChannelId[]>([]);
  // 'Generate all' asked to see an asset's findings: that card opens its check (each ask anew).
  const [findings, setFindings] = useState<{ channel: CampaignChannelId; n: number } | null>(null);
  const notConfigured = useAiNotConfigured();
  const editable = campaign.role !== 'reader';
  const fromBrief = channelsOfBrief(campaign.brief.channels);
  const list = assets.data?.assets ?? [];
  const shown = campaignChannelIds.filter(
    (id) => fromBrief.includes(id) || added.includes(id) || list.some((asset) => asset.channel === id),
  );
  const others = campaignChannelIds.filter((id) => !shown.includes(id));

  let body;
  if (assets.isPending) {
    body = <ListState role="status">Loading the assets…</ListState>;
  } else if (assets.isError) {
    body = (
      <ListState role="alert">
        <span>The assets could not be loaded. {problemText(assets.error, 'Please try again.')}</span>
        <Button variant="secondary" className={styles.smallButton} onClick={() => void assets.refetch()}>
          Try again
        </Button>
      </ListState>
    );
  } else if (shown.length === 0) {
    body = (
      <ListState>
        The brief names no channel GEM writes for
        {editable ? ': add an asset for one below.' : '.'}
      </ListState>
    );
  } else {
    body = (
      <ul className={styles.cards} aria-label="Assets by channel">
        {shown.map((channel) => (
          <AssetCard
            key={channel}
            campaign={campaign}
            channel={channel}
            asset={list.find((asset) => asset.channel === channel)}
            findingsRequest={findings?.channel === channel ? findings.n : undefined}
          />
        ))}
      </ul>
    );
  }

  return (
    <section className={styles.section} aria-labelledby="campaign-assets-heading">
      <div className={styles.sectionHeader}>
        <h2 id="campaign-assets-heading" className={styles.sectionTitle}>
          Assets
        </h2>
        <p className={styles.intro}>
          One for each channel the brief calls for, written by the channel&rsquo;s writing tool from the
          brief. Every generation and every save is kept as a version.
        </p>
      </div>
      {editable ? (
        <GenerateAll
          campaign={campaign}
          onShowFindings={(channel) => setFindings((was) => ({ channel, n: (was?.n ?? 0) + 1 }))}
        />
      ) : null}
      {editable && notConfigured ? <AiServiceNotice /> : null}
      {body}
      {editable && assets.isSuccess && others.length > 0 ? (
        <AddChannel channels={others} onAdd={(channel) => setAdded((was) => [...was, channel])} />
      ) : null}
    </section>
  );
}

/** An asset for a channel the brief does not name: its card is added, empty, to be generated. */
function AddChannel({
  channels,
  onAdd,
}: {
  channels: CampaignChannelId[];
  onAdd: (channel: CampaignChannelId) => void;
}) {
  const [choice, setChoice] = useState<CampaignChannelId | ''>('');
  const id = useId();
  return (
    <form
      className={styles.addChannel}
      onSubmit={(event) => {
        event.preventDefault();
        if (!choice) return;
        onAdd(choice);
        setChoice('');
      }}
    >
      <div className={styles.statusField}>
        <label className={styles.fieldLabel} htmlFor={id}>
          Add an asset for another channel
        </label>
        <SelectInput
          id={id}
          value={choice}
          onChange={(event) => setChoice(event.target.value as CampaignChannelId | '')}
        >
          <option value="">Choose a channel</option>
          {channels.map((channel) => (
            <option key={channel} value={channel}>
              {campaignChannels[channel].label}
            </option>
          ))}
        </SelectInput>
      </div>
      <Button type="submit" variant="secondary" disabled={!choice}>
        Add asset
      </Button>
    </form>
  );
}
