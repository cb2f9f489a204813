import {
  briefFieldLabels,
  briefFields,
  campaignTypes,
  isBriefEmpty,
  isBriefFieldFilled,
  requiredBriefFields,
  type BriefData,
  type BriefField,
  type CampaignType,
} from '@gem/contracts/brief-creator';
import type { StyleCheck } from '@gem/contracts/brand-voice';
import { useId, useState } from 'react';

import { TextArea, TextInput } from '@/components/ui/fields';
import { ChevronRightIcon } from '@/components/ui/icons';
import { InlineList } from '@/components/ui/inline-list';
import { Panel } from '@/components/ui/panel';

import { UNTITLED_BRIEF } from '../use-brief-chat';
import { BriefStyle } from './brief-style';
import styles from './brief-creator.module.css';
import { ExportButtons } from './export-buttons';
import { ListEditor } from './list-editor';

const required: ReadonlySet<BriefField> = new Set(requiredBriefFields);
/** Fields that take a sentence or more: a text area that grows with its text. */
const longTextFields: ReadonlySet<BriefField> = new Set([
  'primaryObjective',
  'eventObjective',
  'targetAudience',
  'keyMessages',
  'creativeAssets',
  'additionalNotes',
]);

type BriefPreviewProps = {
  brief: BriefData;
  /** The style check of the brief that came with the last turn (issue 31). */
  briefStyle?: StyleCheck | null;
  /** The brief changed by the style check's Apply, Apply all or Undo. */
  onBriefChange: (next: BriefData) => void;
  onFieldChange: <F extends BriefField>(field: F, value: BriefData[F]) => void;
  /** While a turn runs the fields are read-only: its answer brings the brief it worked from. */
  locked: boolean;
};

/**
 * The live brief (spec §2, left): every field of spec §3, editable in place, how many required
 * fields are filled, the exports, and the brief's style check (issue 31). On a phone it folds away above the chat.
 */
export function BriefPreview({ brief, briefStyle, onBriefChange, onFieldChange, locked }: BriefPreviewProps) {
  const headingId = useId();
  const bodyId = useId();
  const [open, setOpen] = useState(false);
  const filled = requiredBriefFields.filter((field) => isBriefFieldFilled(brief, field)).length;

  return (
    <Panel as="section" className={styles.preview} aria-labelledby={headingId}>
      <header className={styles.previewHeader}>
        <div className={styles.previewTitleRow}>
          <h2 id={headingId} className={styles.panelTitle}>
            Brief preview
          </h2>
          <button
            type="button"
            className={styles.collapseToggle}
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => setOpen((was) => !was)}
          >
            {open ? 'Hide fields' : 'Show fields'}
            <ChevronRightIcon className={open ? styles.chevronOpen : styles.chevron} />
          </button>
        </div>
        <div className={styles.completeness}>
          <p className={styles.completenessText}>
            {filled} of {requiredBriefFields.length} required
          </p>
          <ol className={styles.segments} aria-hidden="true">
            {requiredBriefFields.map((field) => (
              <li
                key={field}
                className={isBriefFieldFilled(brief, field) ? styles.segmentFilled : styles.segment}
              />
            ))}
          </ol>
        </div>
        <ExportButtons
          brief={{ title: brief.campaignName.trim() || UNTITLED_BRIEF, data: brief }}
          disabled={isBriefEmpty(brief)}
        />
      </header>
      <div id={bodyId} className={styles.previewBody} data-open={open}>
        <fieldset className={styles.fields} disabled={locked}>
          <legend className="visually-hidden">Brief fields</legend>
          {briefFields.map((field) => (
            <FieldEditor key={field} field={field} brief={brief} onFieldChange={onFieldChange} />
          ))}
        </fieldset>
        <div className={styles.style}>
          <BriefStyle brief={brief} initial={briefStyle} onBriefChange={onBriefChange} locked={locked} />
        </div>
      </div>
    </Panel>
  );
}

function FieldEditor({
  field,
  brief,
  onFieldChange,
}: {
  field: BriefField;
  brief: BriefData;
  onFieldChange: BriefPreviewProps['onFieldChange'];
}) {
  const id = useId();
  const label = briefFieldLabels[field];
  const isRequired = required.has(field);

  if (field === 'campaignType') {
    const chosen = new Set(brief.campaignType);
    return (
      <fieldset className={styles.field}>
        <legend className={styles.fieldLabel} data-required>
          {label}
        </legend>
        <InlineList>
          {campaignTypes.map((type) => (
            <li key={type}>
              <label className={styles.option}>
                <input
                  type="checkbox"
                  checked={chosen.has(type)}
                  onChange={(event) => {
                    const next = campaignTypes.filter((t: CampaignType) =>
                      t === type ? event.target.checked : chosen.has(t),
                    );
                    onFieldChange('campaignType', next);
                  }}
                />
                <span>{type}</span>
              </label>
            </li>
          ))}
        </InlineList>
      </fieldset>
    );
  }

  if (
    field === 'channels' ||
    field === 'activityKPIs' ||
    field === 'businessKPIs' ||
    field === 'recommendations'
  ) {
    return (
      <ListEditor
        label={label}
        required={isRequired}
        items={brief[field]}
        onChange={(items) => onFieldChange(field, items)}
      />
    );
  }

  const labelElement = (
    <label className={styles.fieldLabel} htmlFor={id} data-required={isRequired || undefined}>
      {label}
    </label>
  );

  if (field === 'eventDate') {
    return (
      <div className={styles.field}>
        {labelElement}
        <TextInput
          id={id}
          type="date"
          density="compact"
          className={styles.dateInput}
          value={brief.eventDate ?? ''}
          onChange={(event) =>
            onFieldChange('eventDate', event.target.value === '' ? null : event.target.value)
          }
        />
      </div>
    );
  }

  const value = brief[field];
  return (
    <div className={styles.field}>
      {labelElement}
      {longTextFields.has(field) ? (
        <TextArea
          id={id}
          density="compact"
          className={styles.textarea}
          rows={2}
          value={value}
          aria-required={isRequired || undefined}
          placeholder="Not specified yet"
          onChange={(event) => onFieldChange(field, event.target.value)}
        />
      ) : (
        <TextInput
          id={id}
          density="compact"
          value={value}
          aria-required={isRequired || undefined}
          placeholder="Not specified yet"
          onChange={(event) => onFieldChange(field, event.target.value)}
        />
      )}
    </div>
  );
}
