import type { Campaign } from '@gem/contracts/campaigns';

import { CampaignPackButton } from '../pack/campaign-pack-button';
import { CampaignQr } from '../pack/campaign-qr';
import styles from './campaign-details.module.css';

/**
 * 'Hand it over' (issue 29): the campaign pack and the landing page's QR code, for anyone who may
 * read the campaign (its owner and editors set the QR code's settings).
 */
export function CampaignHandover({ campaign }: { campaign: Campaign }) {
  return (
    <section className={styles.handover} aria-labelledby="campaign-handover-heading">
      <h2 id="campaign-handover-heading" className={styles.handoverTitle}>
        Hand it over
      </h2>
      <p className={styles.handoverIntro}>
        The pack: a Word document with the brief and every approved asset by channel, its tracked links
        listed, and a ZIP with that document, the brief&rsquo;s Excel, the QR code of the landing page, the
        tracked links as a CSV file and the contacts of each saved segment as CSV, read from the CRM as you
        download. The QR code below is the one the pack holds; it downloads on its own as PNG or SVG too.
      </p>
      <CampaignPackButton campaign={campaign} />
      <CampaignQr campaign={campaign} />
    </section>
  );
}
