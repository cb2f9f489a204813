import {
  briefFieldLabels,
  briefFields,
  briefListFields,
  campaignTypes,
  requiredBriefFields,
  type BriefData,
  type BriefField,
} from '@gem/contracts/brief-creator';
import { useId } from 'react';

import { TextArea, TextInput } from '@/components/ui/fields';

import styles from './campaign-details.module.css';

const required: ReadonlySet<BriefField> = new Set(requiredBriefFields);
const listFields: ReadonlySet<BriefField> = new Set(briefListFields);
/** Fields that take a sentence or more. */
const longTextFields: ReadonlySet<BriefField> = new Set([
  'primaryObjective',
  'eventObjective',
  'targetAudience',
  'keyMessages',
  'creativeAssets',
  'additionalNotes',
]);

type BriefFormProps = {
  brief: BriefData;
  onChange: (brief: BriefData) => void;
};

/** Every field of the brief, editable: text, the campaign types to tick, lists one item a line. */
export function BriefForm({ brief, onChange }: BriefFormProps) {
  return (
    <div className={styles.briefForm}>
      {briefFields.map((field) => (
        <BriefFieldInput key={field} field={field} brief={brief} onChange={onChange} />
      ))}
    </div>
  );
}

function BriefFieldInput({ field, brief, onChange }: { field: BriefField } & BriefFormProps) {
  const id = useId();
  const label = briefFieldLabels[field];
  const isRequired = required.has(field);
  const set = <F extends BriefField>(name: F, value: BriefData[F]) => onChange({ ...brief, [name]: value });

  if (field === 'campaignType') {
    const chosen = new Set(brief.campaignType);
    return (
      <fieldset className={styles.formField}>
        <legend className={styles.fieldLabel} data-required>
          {label}
        </legend>
        <ul className={styles.options}>
          {campaignTypes.map((type) => (
            <li key={type}>
              <label className={styles.option}>
                <input
                  type="checkbox"
                  checked={chosen.has(type)}
                  onChange={(event) =>
                    set(
                      'campaignType',
                      campaignTypes.filter((t) => (t === type ? event.target.checked : chosen.has(t))),
                    )
                  }
                />
                <span>{type}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
    );
  }

  const labelElement = (
    <label htmlFor={id} className={styles.fieldLabel} data-required={isRequired || undefined}>
      {label}
    </label>
  );

  if (field === 'eventDate') {
    return (
      <div className={styles.formField}>
        {labelElement}
        <TextInput
          id={id}
          type="date"
          density="compact"
          className={styles.dateInput}
          value={brief.eventDate ?? ''}
          onChange={(event) => set('eventDate', event.target.value === '' ? null : event.target.value)}
        />
      </div>
    );
  }

  if (listFields.has(field)) {
    const items = brief[field] as string[];
    return (
      <div className={styles.formField}>
        {labelElement}
        <p id={`${id}-hint`} className={styles.fieldHint}>
          One per line.
        </p>
        <TextArea
          id={id}
          density="compact"
          className={styles.textarea}
          rows={Math.max(2, items.length)}
          value={items.join('\n')}
          aria-required={isRequired || undefined}
          aria-describedby={`${id}-hint`}
          onChange={(event) => set(field, event.target.value.split('\n'))}
        />
      </div>
    );
  }

  const value = brief[field] as string;
  return (
    <div className={styles.formField}>
      {labelElement}
      {longTextFields.has(field) ? (
        <TextArea
          id={id}
          density="compact"
          className={styles.textarea}
          rows={3}
          value={value}
          aria-required={isRequired || undefined}
          onChange={(event) => set(field, event.target.value)}
        />
      ) : (
        <TextInput
          id={id}
          density="compact"
          value={value}
          aria-required={isRequired || undefined}
          onChange={(event) => set(field, event.target.value)}
        />
      )}
    </div>
  );
}
