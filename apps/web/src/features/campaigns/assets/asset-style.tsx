import type { CampaignAsset } from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useEffect, useRef, useState } from 'react';

import { StyleFindings } from '@/lib/brand-voice/components/style-findings';
import { useStyleFindings } from '@/lib/brand-voice/use-style-findings';

import { isStatus, problemText } from '../problem-text';
import { useSaveAsset } from './api/save-asset';
import styles from './asset-style.module.css';

type AssetStyleProps = {
  campaignId: string;
  channel: CampaignChannelId;
  asset: CampaignAsset;
  /** Readers see the findings; only the owner and editors apply them. */
  editable: boolean;
};

/**
 * An asset's style check against its channel (issue 31): checked when opened, the findings marked
 * in its text; Apply, Apply all and Undo save the text as the asset's next version through the
 * asset's own edit call, so each is a version like any edit (and a conflict like any edit's).
 */
export function AssetStyle({ campaignId, channel, asset, editable }: AssetStyleProps) {
  const save = useSaveAsset(campaignId, channel);
  const [text, setText] = useState(asset.text);
  const [problem, setProblem] = useState<string | null>(null);
  const base = useRef(asset.version);
  // Someone saved or generated it since (or our own save came back): the asset's text is the text.
  const [seen, setSeen] = useState({ text: asset.text, version: asset.version });
  if (seen.version !== asset.version || seen.text !== asset.text) {
    setSeen({ text: asset.text, version: asset.version });
    if (!save.isPending) setText(asset.text);
  }
  useEffect(() => {
    base.current = Math.max(base.current, asset.version);
  }, [asset.version]);

  function change(next: string) {
    const before = text;
    setText(next);
    setProblem(null);
    save.mutate(
      { text: next, baseVersion: base.current },
      {
        onSuccess: (saved) => {
          base.current = Math.max(base.current, saved.version);
        },
        onError: (error) => {
          setText(before);
          setProblem(
            isStatus(error, 409)
              ? 'Someone saved this asset in the meantime, so the fix was not saved. Check it again to see its text now.'
              : problemText(error, 'The fix could not be saved. Please try again.'),
          );
        },
      },
    );
  }

  // The stored check of the generation the text was made from: shown without checking again. It
  // holds only for the asset's own text, and stays until another generation brings its own (an
  // Apply saves an edit, which has none, and must not take the findings away).
  const [stored, setStored] = useState(() =>
    asset.style ? { generationId: asset.provenance?.generationId, style: asset.style } : null,
  );
  if (asset.style && text === asset.text && stored?.style !== asset.style) {
    const generationId = asset.provenance?.generationId;
    if (!stored || stored.generationId !== generationId) setStored({ generationId, style: asset.style });
  }
  const findings = useStyleFindings({
    text,
    onChange: change,
    target: channel,
    initial: stored?.style,
  });
  const started = useRef(false);
  useEffect(() => {
    // Opened by the card's Check button: check at once, unless the generation's check is here.
    if (started.current) return;
    started.current = true;
    if (!findings.current) void findings.check();
  }, [findings]);

  return (
    <div className={styles.style}>
      <StyleFindings state={findings} canApply={editable} />
      {!editable ? (
        <p className={styles.muted}>Only the campaign’s owner and editors can apply the fixes.</p>
      ) : null}
      {save.isPending ? (
        <p className={styles.muted} role="status">
          Saving the text as a new version…
        </p>
      ) : null}
      {problem ? (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
