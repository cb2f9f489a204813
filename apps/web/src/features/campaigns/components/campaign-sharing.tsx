import type { Campaign, CampaignSharing as Sharing } from '@gem/contracts/campaigns';
import { useId } from 'react';

import { useUpdateCampaign } from '../api/update-campaign';
import { canShare, sharingLabels } from '../campaign-labels';
import { problemText } from '../problem-text';
import styles from './campaign-details.module.css';

const sharingOptions: { value: Sharing; label: string; hint: string }[] = [
  { value: 'private', label: 'Private', hint: 'Only you and the editors you add.' },
  { value: 'team', label: 'Team', hint: 'Everyone in GEM can read it and make a copy.' },
];

/** Private or the team's to read: the owner chooses; others see which it is. */
export function CampaignSharing({ campaign }: { campaign: Campaign }) {
  const update = useUpdateCampaign(campaign.id);
  const id = useId();
  if (!canShare(campaign.role)) {
    return (
      <div className={styles.setting}>
        <p className={styles.fieldLabel}>Sharing</p>
        <p className={styles.settingValue}>
          {campaign.sharing === 'team' ? 'Shared with the team (read only)' : sharingLabels.private}
        </p>
      </div>
    );
  }
  const shown = (update.isPending && update.variables.sharing) || campaign.sharing;
  return (
    <fieldset className={styles.setting} aria-describedby={update.isError ? `${id}-error` : undefined}>
      <legend className={styles.fieldLabel}>Sharing</legend>
      <div className={styles.choices}>
        {sharingOptions.map((option) => (
          <label key={option.value} className={styles.choice}>
            <input
              type="radio"
              name={`${id}-sharing`}
              value={option.value}
              checked={shown === option.value}
              aria-describedby={`${id}-${option.value}`}
              onChange={() => update.mutate({ sharing: option.value })}
            />
            <span>
              <span className={styles.choiceLabel}>{option.label}</span>
              <span id={`${id}-${option.value}`} className={styles.fieldHint}>
                {option.hint}
              </span>
            </span>
          </label>
        ))}
      </div>
      {update.isError ? (
        <p id={`${id}-error`} className={styles.fieldError} role="alert">
          {problemText(update.error, 'The sharing could not be changed.')}
        </p>
      ) : null}
    </fieldset>
  );
}
