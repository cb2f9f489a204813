import { campaignStatusLabels, type CampaignSummary } from '@gem/contracts/campaigns';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format-date';

import { roleLabels, sharingLabels, statusTones } from '../campaign-labels';
import { campaignLink } from '../campaign-paths';
import styles from './campaigns.module.css';

const listed = (items: readonly string[]) =>
  items.length > 0 ? items.join(', ') : <span className={styles.notSpecified}>Not specified</span>;

/** One campaign of the list: what it is, where it stands, whose it is; its name opens it. */
export function CampaignCard({ campaign }: { campaign: CampaignSummary }) {
  return (
    <li>
      <Card as="article" aria-label={campaign.name} className={styles.card}>
        <div className={styles.cardTop}>
          <Badge tone={statusTones[campaign.status]}>{campaignStatusLabels[campaign.status]}</Badge>
          <span className={styles.role}>Your role: {roleLabels[campaign.role]}</span>
        </div>
        <h2 className={styles.cardTitle}>
          <Link to={campaignLink(campaign.id)} className={styles.cardLink}>
            {campaign.name}
          </Link>
        </h2>
        <dl className={styles.facts}>
          <div>
            <dt>Owner</dt>
            <dd>
              {campaign.owner.name}
              {campaign.sharing === 'team' ? (
                <span className={styles.factNote}> · {sharingLabels.team}</span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Campaign type</dt>
            <dd>{listed(campaign.campaignType)}</dd>
          </div>
          <div>
            <dt>Channels</dt>
            <dd>{listed(campaign.channels)}</dd>
          </div>
        </dl>
        <p className={styles.updated}>
          Updated <time dateTime={campaign.updatedAt}>{formatDateTime(campaign.updatedAt)}</time>
        </p>
      </Card>
    </li>
  );
}
