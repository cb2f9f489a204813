import { useId, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/fields';

import { useUpdateCampaign } from '../api/update-campaign';
import { problemText } from '../problem-text';
import styles from './campaign-details.module.css';

type SettingFieldProps = {
  campaignId: string;
  name: 'crmCampaignId' | 'landingUrl';
  label: string;
  hint: string;
  value: string | null;
  editable: boolean;
  maxLength: number;
  type?: 'text' | 'url';
};

/**
 * One setting saved on its own, so the server's 400 stands at its field (the CRM has no such
 * campaign; not a whole web address). Emptied and saved, it is taken off.
 */
export function SettingField({
  campaignId,
  name,
  label,
  hint,
  value,
  editable,
  maxLength,
  type = 'text',
}: SettingFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateCampaign(campaignId);
  const shown = draft ?? value ?? '';

  if (!editable) {
    return (
      <div className={styles.setting}>
        <p className={styles.fieldLabel}>{label}</p>
        <p className={value ? styles.settingValue : styles.notSpecified}>{value ?? 'Not set'}</p>
      </div>
    );
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const next = shown.trim() === '' ? null : shown.trim();
    try {
      await update.mutateAsync({ [name]: next });
      setDraft(null);
    } catch {
      // Shown under the field; what was typed stays in it.
    }
  }

  const changed = draft !== null && (draft.trim() || null) !== value;
  const describedBy = [`${id}-hint`, update.isError ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <form className={styles.setting} noValidate onSubmit={(event) => void save(event)}>
      <label htmlFor={id} className={styles.fieldLabel}>
        {label}
      </label>
      <p id={`${id}-hint`} className={styles.fieldHint}>
        {hint}
      </p>
      <div className={styles.settingRow}>
        <TextInput
          id={id}
          type={type}
          density="compact"
          value={shown}
          maxLength={maxLength}
          spellCheck={false}
          aria-invalid={update.isError || undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setDraft(event.target.value);
            if (update.isError) update.reset();
          }}
        />
        <Button
          type="submit"
          variant="secondary"
          className={styles.smallButton}
          disabled={!changed || update.isPending}
          aria-label={`Save ${label}`}
        >
          Save
        </Button>
      </div>
      {update.isError ? (
        <p id={`${id}-error`} className={styles.fieldError} role="alert">
          {problemText(update.error, `The ${label.toLowerCase()} could not be saved.`)}
        </p>
      ) : null}
    </form>
  );
}
