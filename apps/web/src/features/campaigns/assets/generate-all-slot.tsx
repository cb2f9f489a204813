import type { Campaign } from '@gem/contracts/campaigns';

import styles from './campaign-assets.module.css';

/**
 * The place of 'Generate all' (issue 29, item 2: every asset the brief's channels call for,
 * streamed, with progress per asset): at the top of the assets, above the cards. Its server
 * route (contracts' `campaignAssetsPaths.generateAll`) is being built; until it lands this
 * renders nothing. Its progress per asset belongs in each card (the card's generation state).
 */
export function GenerateAllSlot(_props: { campaign: Campaign }) {
  return <div className={styles.bulk} data-slot="generate-all" />;
}
