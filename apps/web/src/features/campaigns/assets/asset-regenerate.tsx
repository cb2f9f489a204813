import { ASSET_INSTRUCTION_MAX, assetInstructionPresets } from '@gem/contracts/campaign-assets';
import { campaignChannels, type CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { isOverLimit, TextAreaField } from '@/components/ui/fields';
import { SparkIcon } from '@/components/ui/icons';
import { GenerateActions } from '@/components/ui/tool-layout';

import styles from './campaign-assets.module.css';
import type { useAssetGeneration } from './use-asset-generation';

type AssetRegenerateProps = {
  channel: CampaignChannelId;
  generation: ReturnType<typeof useAssetGeneration>;
  onClose: () => void;
};

/**
 * Regenerate with an instruction: a preset ('Shorter', 'More formal', 'For CFOs') at once, or the
 * marketer's own words. The writing tool is sent the current text with it; the answer is the next
 * version.
 */
export function AssetRegenerate({ channel, generation, onClose }: AssetRegenerateProps) {
  const [instruction, setInstruction] = useState('');
  const headingId = useId();
  const presetsId = useId();
  const busy = generation.isBusy;
  const ready = instruction.trim() !== '' && !isOverLimit(instruction, ASSET_INSTRUCTION_MAX);

  async function run(text: string) {
    if (busy) return;
    if (await generation.generate({ instruction: text })) {
      setInstruction('');
      onClose();
    }
  }

  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h4 id={headingId} className={styles.panelTitle}>
          Regenerate the {campaignChannels[channel].label}
        </h4>
        <p className={styles.muted}>
          GEM rewrites the current text as you ask; the new text is a version of its own.
        </p>
      </div>
      <div className={styles.fields}>
        <p id={presetsId} className={styles.fieldLabel}>
          Make it
        </p>
        <ul className={styles.presets} aria-labelledby={presetsId}>
          {assetInstructionPresets.map((preset) => (
            <li key={preset}>
              <Button
                variant="secondary"
                className={styles.preset}
                disabled={busy}
                onClick={() => void run(preset)}
              >
                <SparkIcon />
                {preset}
              </Button>
            </li>
          ))}
        </ul>
      </div>
      <form
        className={styles.fields}
        aria-labelledby={headingId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) void run(instruction.trim());
        }}
      >
        <TextAreaField
          label="Or say how to change it"
          subject="The instruction"
          hint="For example: mention the early-bird price, or address IT directors."
          value={instruction}
          onValueChange={setInstruction}
          limit={ASSET_INSTRUCTION_MAX}
          rows={2}
        />
        <div className={styles.panelActions}>
          <GenerateActions label="Regenerate" ready={ready} isGenerating={busy} />
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </form>
    </section>
  );
}
