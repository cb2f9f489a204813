import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/fields';
import { CloseIcon } from '@/components/ui/icons';

import styles from './brief-creator.module.css';

type ListEditorProps = {
  label: string;
  required: boolean;
  items: readonly string[];
  onChange: (items: string[]) => void;
};

/** A list field of the brief: its items, each editable and removable, and a box to add one. */
export function ListEditor({ label, required, items, onChange }: ListEditorProps) {
  const [draft, setDraft] = useState('');
  const id = useId();

  function add() {
    const item = draft.trim();
    if (item === '') return;
    onChange([...items, item]);
    setDraft('');
  }

  return (
    <fieldset className={styles.field}>
      <legend className={styles.fieldLabel} data-required={required || undefined}>
        {label}
      </legend>
      {items.length > 0 ? (
        <ul className={styles.listItems} aria-label={label}>
          {items.map((item, index) => (
            <li key={index} className={styles.listItem}>
              <TextInput
                density="compact"
                aria-label={`${label}, item ${index + 1}`}
                value={item}
                onChange={(event) =>
                  onChange(items.map((old, i) => (i === index ? event.target.value : old)))
                }
              />
              <button
                type="button"
                className={styles.iconButton}
                aria-label={`Remove ${item.trim() || `item ${index + 1}`} from ${label}`}
                onClick={() => onChange(items.filter((_, i) => i !== index))}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className={styles.addRow}>
        <TextInput
          id={id}
          density="compact"
          aria-label={`Add to ${label}`}
          placeholder="Add an item"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            add();
          }}
        />
        <Button variant="secondary" className={styles.addButton} onClick={add} disabled={draft.trim() === ''}>
          Add
        </Button>
      </div>
    </fieldset>
  );
}
