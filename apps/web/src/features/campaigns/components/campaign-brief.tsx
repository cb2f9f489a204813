import type { BriefData } from '@gem/contracts/brief-creator';
import type { Campaign } from '@gem/contracts/campaigns';
import { useId, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';

import { useCampaignBriefVersions } from '../api/get-campaign-brief-versions';
import { useSaveCampaignBrief } from '../api/save-campaign-brief';
import { tidyBrief } from '../brief-values';
import { canEdit } from '../campaign-labels';
import { isStatus, problemText } from '../problem-text';
import { BriefConflict, type NewestVersion } from './brief-conflict';
import { BriefForm } from './brief-form';
import { BriefView } from './brief-view';
import styles from './campaign-details.module.css';

/** The campaign's brief as it stands; its owner and editors change it, each save a new version. */
export function CampaignBrief({ campaign }: { campaign: Campaign }) {
  const [editing, setEditing] = useState(false);
  const headingId = useId();
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.panelTitle}>
          Brief
        </h2>
        <span className={styles.version}>Version {campaign.briefVersion}</span>
        {canEdit(campaign.role) && !editing ? (
          <Button variant="secondary" className={styles.smallButton} onClick={() => setEditing(true)}>
            Edit brief
          </Button>
        ) : null}
      </div>
      {editing ? (
        <BriefEditor campaign={campaign} onDone={() => setEditing(false)} />
      ) : (
        <BriefView brief={campaign.brief} />
      )}
    </Panel>
  );
}

/**
 * The brief in a form, from the version it was opened on. A save on an older version than the
 * newest is refused (409): the form keeps what was typed, and BriefConflict says what to do.
 */
function BriefEditor({ campaign, onDone }: { campaign: Campaign; onDone: () => void }) {
  const [draft, setDraft] = useState<BriefData>(campaign.brief);
  const [base, setBase] = useState(campaign.briefVersion);
  const save = useSaveCampaignBrief(campaign.id);
  const versions = useCampaignBriefVersions(campaign.id);
  const conflict = isStatus(save.error, 409);
  // The refused save asked for the campaign again: a newer version is the one someone saved.
  const newest: NewestVersion | null =
    campaign.briefVersion > base
      ? {
          version: campaign.briefVersion,
          brief: campaign.brief,
          author:
            versions.data?.versions.find((v) => v.version === campaign.briefVersion)?.author.name ?? null,
        }
      : null;

  async function submit(baseVersion: number) {
    setBase(baseVersion);
    try {
      await save.mutateAsync({ brief: tidyBrief(draft), baseVersion });
      onDone();
    } catch {
      // Shown above the buttons (a conflict, above the form); what was typed stays.
    }
  }

  return (
    <form
      className={styles.briefEditor}
      aria-label="Edit the brief"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void submit(base);
      }}
    >
      {conflict ? (
        <BriefConflict
          base={base}
          newest={newest}
          mine={draft}
          busy={save.isPending}
          onSaveMine={() => newest && void submit(newest.version)}
          onTakeNewest={() => {
            if (!newest) return;
            setDraft(newest.brief);
            setBase(newest.version);
            save.reset();
          }}
        />
      ) : null}
      <BriefForm brief={draft} onChange={setDraft} />
      {save.isError && !conflict ? (
        <p className={styles.fieldError} role="alert">
          {problemText(save.error, 'The brief could not be saved.')}
        </p>
      ) : null}
      <div className={styles.formActions}>
        <Button type="submit" disabled={save.isPending || conflict}>
          {save.isPending ? 'Saving…' : 'Save brief'}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
