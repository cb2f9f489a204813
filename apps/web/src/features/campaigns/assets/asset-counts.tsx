import { channelCounts } from '@gem/contracts/campaign-assets';
import { campaignChannels, type CampaignChannelId } from '@gem/contracts/campaign-channels';

import { AlertIcon } from '@/components/ui/icons';

import { countText } from './asset-labels';
import styles from './campaign-assets.module.css';

/**
 * The text's counts against each of its channel's limits, counted as the server counts them
 * (contracts' channelCounts). A count over its limit says so in words and with a mark, not in
 * colour alone.
 */
export function AssetCounts({
  channel,
  text,
  live = false,
}: {
  channel: CampaignChannelId;
  text: string;
  /** Counting what is being typed: a screen reader hears the counts when the typing pauses. */
  live?: boolean;
}) {
  const counts = channelCounts(channel, text);
  return (
    <ul
      className={styles.counts}
      aria-label={`Length against the ${campaignChannels[channel].label}'s limits`}
      aria-live={live ? 'polite' : undefined}
    >
      {counts.map((limit) => {
        const { label, value, problem } = countText(limit);
        return (
          <li key={limit.label} className={problem ? `${styles.count} ${styles.countOver}` : styles.count}>
            {problem ? <AlertIcon /> : null}
            <span className={styles.countLabel}>{label}:</span>
            <span>{value}</span>
            {problem ? <span>({problem})</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
