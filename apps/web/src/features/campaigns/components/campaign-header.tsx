import {
  CAMPAIGN_NAME_MAX,
  campaignStatuses,
  campaignStatusLabels,
  type Campaign,
  type CampaignStatus,
} from '@gem/contracts/campaigns';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Eyebrow } from '@/components/ui/eyebrow';
import { SelectInput, TextInput } from '@/components/ui/fields';
import { CopyIcon } from '@/components/ui/icons';
import { formatDateTime } from '@/lib/format-date';
import { toast } from '@/lib/toast';

import { useDuplicateCampaign } from '../api/duplicate-campaign';
import { useUpdateCampaign } from '../api/update-campaign';
import { canEdit, roleLabels, sharingLabels, statusTones } from '../campaign-labels';
import { campaignLink } from '../campaign-paths';
import { problemText } from '../problem-text';
import styles from './campaign-details.module.css';

/** The campaign's name (renamed in place), its status, the user's role, whose it is, and Duplicate. */
export function CampaignHeader({ campaign }: { campaign: Campaign }) {
  return (
    <header className={styles.header}>
      <div className={styles.headerTop}>
        <Eyebrow>Campaign</Eyebrow>
        <Badge tone={campaign.role === 'reader' ? 'neutral' : 'brand'}>{roleLabels[campaign.role]}</Badge>
      </div>
      <CampaignName campaign={campaign} />
      <div className={styles.headerBar}>
        <CampaignStatusControl campaign={campaign} />
        <dl className={styles.meta}>
          <div>
            <dt>Owner</dt>
            <dd>{campaign.owner.name}</dd>
          </div>
          <div>
            <dt>Sharing</dt>
            <dd>{sharingLabels[campaign.sharing]}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>
              <time dateTime={campaign.updatedAt}>{formatDateTime(campaign.updatedAt)}</time>
            </dd>
          </div>
          {campaign.duplicatedFrom ? (
            <div>
              <dt>Copied from</dt>
              <dd>
                <Link to={campaignLink(campaign.duplicatedFrom)}>the original campaign</Link>
              </dd>
            </div>
          ) : null}
        </dl>
        <DuplicateButton campaign={campaign} />
      </div>
    </header>
  );
}

/** The page's heading; the owner and editors rename it in place (Enter saves, Escape cancels). */
function CampaignName({ campaign }: { campaign: Campaign }) {
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateCampaign(campaign.id);
  const id = useId();

  if (draft === null) {
    return (
      <div className={styles.nameRow}>
        <h1 className={styles.title}>{campaign.name}</h1>
        {canEdit(campaign.role) ? (
          <Button
            variant="secondary"
            className={styles.smallButton}
            onClick={() => {
              update.reset();
              setDraft(campaign.name);
            }}
          >
            Rename
          </Button>
        ) : null}
      </div>
    );
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const name = draft?.trim() ?? '';
    if (name === campaign.name) return setDraft(null);
    try {
      await update.mutateAsync({ name });
      setDraft(null);
    } catch {
      // Shown under the field; what was typed stays in it.
    }
  }

  return (
    <form className={styles.renameForm} onSubmit={(event) => void save(event)}>
      <h1 className="visually-hidden">{campaign.name}</h1>
      <label htmlFor={id} className={styles.fieldLabel}>
        Campaign name
      </label>
      <div className={styles.renameRow}>
        <TextInput
          id={id}
          value={draft}
          maxLength={CAMPAIGN_NAME_MAX}
          // The field appears because Rename was chosen: typing goes there.
          autoFocus
          aria-invalid={update.isError || undefined}
          aria-describedby={update.isError ? `${id}-error` : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setDraft(null);
          }}
        />
        <Button type="submit" className={styles.smallButton} disabled={update.isPending}>
          Save name
        </Button>
        <Button variant="secondary" className={styles.smallButton} onClick={() => setDraft(null)}>
          Cancel
        </Button>
      </div>
      {update.isError ? (
        <p id={`${id}-error`} className={styles.fieldError} role="alert">
          {problemText(update.error, 'The name could not be saved.')}
        </p>
      ) : null}
    </form>
  );
}

/** Where the campaign stands: a select for its owner and editors, a badge for a reader. */
function CampaignStatusControl({ campaign }: { campaign: Campaign }) {
  const update = useUpdateCampaign(campaign.id);
  const id = useId();
  if (!canEdit(campaign.role)) {
    return (
      <p className={styles.statusRead}>
        <span className="visually-hidden">Status: </span>
        <Badge tone={statusTones[campaign.status]}>{campaignStatusLabels[campaign.status]}</Badge>
      </p>
    );
  }
  // The status chosen shows at once; the server's answer follows.
  const shown = (update.isPending && update.variables.status) || campaign.status;
  return (
    <div className={styles.statusField}>
      <label htmlFor={id} className={styles.metaLabel}>
        Status
      </label>
      <SelectInput
        id={id}
        density="compact"
        value={shown}
        aria-busy={update.isPending || undefined}
        aria-invalid={update.isError || undefined}
        aria-describedby={update.isError ? `${id}-error` : undefined}
        onChange={(event) => update.mutate({ status: event.target.value as CampaignStatus })}
      >
        {campaignStatuses.map((status) => (
          <option key={status} value={status}>
            {campaignStatusLabels[status]}
          </option>
        ))}
      </SelectInput>
      {update.isError ? (
        <p id={`${id}-error`} className={styles.fieldError} role="alert">
          {problemText(update.error, 'The status could not be changed.')}
        </p>
      ) : null}
    </div>
  );
}

/** A private copy for the user (anyone who sees the campaign), opened at once. */
function DuplicateButton({ campaign }: { campaign: Campaign }) {
  const duplicate = useDuplicateCampaign(campaign.id);
  const navigate = useNavigate();

  async function run() {
    try {
      const copy = await duplicate.mutateAsync();
      toast.success(`“${copy.name}” is your own copy.`);
      await navigate(campaignLink(copy.id));
    } catch (error) {
      toast.error(problemText(error, `“${campaign.name}” could not be duplicated.`));
    }
  }

  return (
    <Button
      variant="secondary"
      className={`${styles.smallButton} ${styles.duplicate}`}
      disabled={duplicate.isPending}
      onClick={() => void run()}
    >
      <CopyIcon />
      {duplicate.isPending ? 'Duplicating…' : 'Duplicate'}
    </Button>
  );
}
