import type { Campaign } from '@gem/contracts/campaigns';

import { CampaignPackButton } from '../pack/campaign-pack-button';
import styles from './campaign-details.module.css';

/** 'Hand it over' (issue 29): the campaign pack, for anyone who may read the campaign. */
export function CampaignHandover({ campaign }: { campaign: Campaign }) {
  return (
    <section className={styles.handover} aria-labelledby="campaign-handover-heading">
      <h2 id="campaign-handover-heading" className={styles.handoverTitle}>
        Hand it over
      </h2>
      <p className={styles.handoverIntro}>
        The pack: a Word document with the brief and every approved asset by channel, its tracked links
        listed, and a ZIP with that document, the brief&rsquo;s Excel, the QR code of the landing page and the
        tracked links as a CSV file.
      </p>
      <CampaignPackButton campaign={campaign} />
    </section>
  );
}
