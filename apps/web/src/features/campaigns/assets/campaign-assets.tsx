import type { Campaign } from '@gem/contracts/campaigns';
import { campaignChannels, channelsOfBrief } from '@gem/contracts/campaign-channels';

/** The campaign's assets, one per channel its brief calls for (issue 29). */
export function CampaignAssets({ campaign }: { campaign: Campaign }) {
  const channels = channelsOfBrief(campaign.brief.channels);
  return (
    <section aria-labelledby="campaign-assets-heading">
      <h2 id="campaign-assets-heading">Assets</h2>
      <ul>
        {channels.map((id) => (
          <li key={id}>{campaignChannels[id].label}</li>
        ))}
      </ul>
    </section>
  );
}
