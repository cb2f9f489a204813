import type { Campaign } from '@gem/contracts/campaigns';
import type { MouseEvent } from 'react';

import { Button, ButtonLink } from '@/components/ui/button';
import { ListState } from '@/components/ui/list-panel';

import { canEdit } from '../campaign-labels';
import { problemText } from '../problem-text';
import { useCampaignAudience } from './api/get-campaign-audience';
import { audienceBuilderFor } from './audience-links';
import { AudienceRuns } from './audience-runs';
import styles from './campaign-audience.module.css';
import { SegmentCard } from './segment-card';

/** Takes the user to the settings' CRM campaign ID field and puts the cursor in it. */
function focusCrmField(event: MouseEvent<HTMLAnchorElement>) {
  const label = [...document.querySelectorAll('label')].find((l) => l.textContent === 'CRM campaign ID');
  const field = label?.htmlFor ? document.getElementById(label.htmlFor) : null;
  if (!field) return;
  event.preventDefault();
  field.scrollIntoView?.({ block: 'center' });
  field.focus();
}

/**
 * The campaign's audience (issue 29): the CRM campaign it targets, the audience builder opened
 * for it, the segments saved from there, each one's contacts added to the CRM campaign (a dry
 * run, a confirmation, the result with every refused contact), and the runs so far. A reader
 * sees all of it without a control.
 */
export function CampaignAudience({ campaign }: { campaign: Campaign }) {
  const audience = useCampaignAudience(campaign.id);
  const editable = canEdit(campaign.role);
  const crmCampaignId = audience.data?.crmCampaignId ?? campaign.crmCampaignId;
  const segments = audience.data?.segments ?? [];

  let body;
  if (audience.isPending) {
    body = <ListState role="status">Loading the audience…</ListState>;
  } else if (audience.isError) {
    body = (
      <ListState role="alert">
        <span>The audience could not be loaded. {problemText(audience.error, 'Please try again.')}</span>
        <Button variant="secondary" className={styles.smallButton} onClick={() => void audience.refetch()}>
          Try again
        </Button>
      </ListState>
    );
  } else if (segments.length === 0) {
    body = (
      <ListState>
        No segment saved yet.
        {editable
          ? ' Open the audience builder, generate segments, and save a report to this campaign.'
          : null}
      </ListState>
    );
  } else {
    body = (
      <ul className={styles.segments} aria-label="Saved segments">
        {segments.map((segment) => (
          <SegmentCard
            key={segment.id}
            campaignId={campaign.id}
            segment={segment}
            editable={editable}
            hasCrmCampaign={crmCampaignId !== null}
          />
        ))}
      </ul>
    );
  }

  return (
    <section className={styles.section} aria-labelledby="campaign-audience-heading">
      <div className={styles.sectionHeader}>
        <div className={styles.headerText}>
          <h2 id="campaign-audience-heading" className={styles.sectionTitle}>
            Audience
          </h2>
          {crmCampaignId ? (
            <p className={styles.intro}>
              Targets the CRM campaign <span className={styles.mono}>{crmCampaignId}</span>.
            </p>
          ) : (
            <p className={styles.intro}>
              No CRM campaign yet.{' '}
              {editable ? (
                <>
                  <a href="#campaign-settings" onClick={focusCrmField}>
                    Set its CRM campaign ID in the settings
                  </a>{' '}
                  to build its audience and add contacts to it.
                </>
              ) : (
                'Its owner or an editor can set the CRM campaign ID in the settings.'
              )}
            </p>
          )}
        </div>
        {editable ? (
          <ButtonLink to={audienceBuilderFor(campaign)} variant="secondary" className={styles.smallButton}>
            Open the audience builder
          </ButtonLink>
        ) : null}
      </div>
      {body}
      {audience.data && audience.data.runs.length > 0 ? <AudienceRuns runs={audience.data.runs} /> : null}
    </section>
  );
}
