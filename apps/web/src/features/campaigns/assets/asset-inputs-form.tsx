import { campaignChannels, type CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { isOverLimit, SelectField, TextAreaField } from '@/components/ui/fields';
import { ListState } from '@/components/ui/list-panel';
import { GenerateActions } from '@/components/ui/tool-layout';

import { problemText } from '../problem-text';
import { useAssetInputs } from './api/get-asset-inputs';
import { inputLabel, inputSubject, postFormatOptions, toolName } from './asset-labels';
import styles from './campaign-assets.module.css';
import type { useAssetGeneration } from './use-asset-generation';

type Generation = ReturnType<typeof useAssetGeneration>;
type Inputs = Record<string, unknown>;

type AssetInputsFormProps = {
  campaignId: string;
  channel: CampaignChannelId;
  briefVersion: number;
  generation: Generation;
  onClose: () => void;
};

/**
 * 'Generate from brief': the inputs the channel's writing tool will be sent, as GEM fills them from
 * the brief, in a form the marketer may change first; Generate streams the text into the card.
 */
export function AssetInputsForm({
  campaignId,
  channel,
  briefVersion,
  generation,
  onClose,
}: AssetInputsFormProps) {
  const inputs = useAssetInputs(campaignId, channel, briefVersion, true);
  const headingId = useId();
  const { label } = campaignChannels[channel];
  let body;
  if (inputs.isPending) {
    body = <ListState role="status">Reading the brief…</ListState>;
  } else if (inputs.isError) {
    body = (
      <ListState role="alert">
        <span>What GEM would send could not be loaded. {problemText(inputs.error, 'Please try again.')}</span>
        <Button variant="secondary" className={styles.smallButton} onClick={() => void inputs.refetch()}>
          Try again
        </Button>
      </ListState>
    );
  } else {
    body = (
      <InputFields
        // New inputs (a newer brief) start the form again.
        key={inputs.dataUpdatedAt}
        initial={inputs.data.input}
        generation={generation}
        headingId={headingId}
        onClose={onClose}
      />
    );
  }
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h4 id={headingId} className={styles.panelTitle}>
          Generate the {label} from the brief
        </h4>
        <p className={styles.muted}>
          GEM fills in what {inputs.data ? `the ${toolName(inputs.data.tool)} tool` : 'the writing tool'} is
          sent from version {briefVersion} of the brief. Change anything you like before generating.
        </p>
      </div>
      {body}
    </section>
  );
}

/** As many rows as the text has lines (as typed), within 3 to 10. */
const rowsFor = (text: string) => Math.min(10, Math.max(3, text.split('\n').length + 1));

function InputFields({
  initial,
  generation,
  headingId,
  onClose,
}: {
  initial: Inputs;
  generation: Generation;
  headingId: string;
  onClose: () => void;
}) {
  const [values, setValues] = useState<Inputs>(initial);
  const set = (key: string, value: unknown) => setValues((was) => ({ ...was, [key]: value }));
  const texts = Object.entries(values).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'persona',
  );
  const { fieldErrors } = generation.state;
  const ready = texts.every(([, value]) => value.trim() !== '' && !isOverLimit(value));

  async function submit() {
    if (!ready || generation.isBusy) return;
    if (await generation.generate({ input: values })) onClose();
  }

  return (
    <form
      className={styles.fields}
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {texts.map(([key, value]) => (
        <TextAreaField
          key={key}
          label={inputLabel(key)}
          subject={inputSubject(key)}
          value={value}
          onValueChange={(next) => set(key, next)}
          rows={rowsFor(value)}
          {...(fieldErrors[key] ? { 'aria-invalid': true } : {})}
          hint={fieldErrors[key] ? <span className={styles.fieldError}>{fieldErrors[key]}</span> : undefined}
        />
      ))}
      {'format' in values || 'persona' in values ? (
        <div className={styles.selects}>
          {'format' in values ? (
            <SelectField
              label={inputLabel('format')}
              value={values.format === 300 ? 300 : 200}
              options={postFormatOptions}
              onValueChange={(format) => set('format', format)}
            />
          ) : null}
          {'persona' in values ? (
            <SelectField
              label={inputLabel('persona')}
              value={String(values.persona)}
              options={[{ value: String(values.persona), label: String(values.persona) }]}
              onValueChange={(persona) => set('persona', persona)}
            />
          ) : null}
        </div>
      ) : null}
      <div className={styles.panelActions}>
        <GenerateActions ready={ready} isGenerating={generation.isBusy} />
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </form>
  );
}
