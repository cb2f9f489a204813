import type { Campaign } from '@gem/contracts/campaigns';
import { useId, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/fields';
import { CloseIcon } from '@/components/ui/icons';
import { toast } from '@/lib/toast';

import { useAddCampaignEditor } from '../api/add-campaign-editor';
import { useRemoveCampaignEditor } from '../api/remove-campaign-editor';
import { canShare } from '../campaign-labels';
import { problemText } from '../problem-text';
import styles from './campaign-details.module.css';

/** The people who may change the campaign besides its owner; the owner adds them by e-mail. */
export function CampaignEditors({ campaign }: { campaign: Campaign }) {
  const owner = canShare(campaign.role);
  const remove = useRemoveCampaignEditor(campaign.id);
  const headingId = useId();
  return (
    <div className={styles.setting}>
      <p id={headingId} className={styles.fieldLabel}>
        Editors
      </p>
      {campaign.editors.length === 0 ? (
        <p className={styles.notSpecified}>No editors yet.</p>
      ) : (
        <ul className={styles.people} aria-labelledby={headingId}>
          {campaign.editors.map((editor) => (
            <li key={editor.id} className={styles.person}>
              <span>{editor.name}</span>
              {owner ? (
                <button
                  type="button"
                  className={styles.iconButton}
                  aria-label={`Remove ${editor.name}`}
                  title="Remove"
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(editor.id, {
                      onError: (error) =>
                        toast.error(problemText(error, `${editor.name} could not be removed.`)),
                    })
                  }
                >
                  <CloseIcon />
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {owner ? <AddEditor campaignId={campaign.id} /> : null}
    </div>
  );
}

/** An editor by the e-mail they signed in to GEM with; the server's 400 stands at the field. */
function AddEditor({ campaignId }: { campaignId: string }) {
  const [email, setEmail] = useState('');
  const add = useAddCampaignEditor(campaignId);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (email.trim() === '') return;
    try {
      await add.mutateAsync(email.trim());
      setEmail('');
    } catch {
      // Shown under the field; the address stays in it.
    }
  }

  return (
    <form className={styles.addEditor} noValidate onSubmit={(event) => void submit(event)}>
      <label htmlFor={id} className={styles.fieldHint}>
        Add an editor by the e-mail they sign in to GEM with
      </label>
      <div className={styles.settingRow}>
        <TextInput
          id={id}
          type="email"
          density="compact"
          autoComplete="off"
          placeholder="name@example.com"
          value={email}
          maxLength={320}
          aria-invalid={add.isError || undefined}
          aria-describedby={add.isError ? `${id}-error` : undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            if (add.isError) add.reset();
          }}
        />
        <Button
          type="submit"
          variant="secondary"
          className={styles.smallButton}
          disabled={add.isPending || email.trim() === ''}
        >
          Add editor
        </Button>
      </div>
      {add.isError ? (
        <p id={`${id}-error`} className={styles.fieldError} role="alert">
          {problemText(add.error, 'The editor could not be added.')}
        </p>
      ) : null}
    </form>
  );
}
