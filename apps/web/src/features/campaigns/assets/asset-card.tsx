import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import { assetStatuses, type AssetStatus, type CampaignAsset } from '@gem/contracts/campaign-assets';
import { campaignChannels, type CampaignChannelId } from '@gem/contracts/campaign-channels';
import type { Campaign } from '@gem/contracts/campaigns';
import { useEffect, useId, useMemo, useRef, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { SelectInput } from '@/components/ui/fields';
import { FormattedOutput } from '@/components/ui/formatted-output';
import { StopIcon } from '@/components/ui/icons';
import { Panel } from '@/components/ui/panel';
import { GenerationProblemAlert } from '@/lib/ai/components/generation-problem';
import type { GenerationTexts } from '@/lib/ai/generation-errors';
import outputStyles from '@/lib/writing-tools/components/output-panel.module.css';

import { problemText } from '../problem-text';
import { useCampaignAsset } from './api/get-campaign-asset';
import { useUpdateAsset } from './api/update-asset';
import { AssetCounts } from './asset-counts';
import { AssetEditor, type AssetDraft } from './asset-editor';
import { AssetInputsForm } from './asset-inputs-form';
import { assetStatusLabels, assetStatusTones } from './asset-labels';
import { AssetProvenance } from './asset-provenance';
import { AssetRegenerate } from './asset-regenerate';
import { AssetStyle } from './asset-style';
import { StyleScore } from './asset-style-score';
import { AssetTrackedLinks } from './asset-tracked-links';
import { AssetVersions } from './asset-versions';
import styles from './campaign-assets.module.css';
import { useAssetGeneration } from './use-asset-generation';

type OpenPanel = 'generate' | 'regenerate' | 'edit' | null;

type AssetCardProps = {
  campaign: Campaign;
  channel: CampaignChannelId;
  /** The asset as the list has it; none before its first generation. */
  asset: CampaignAsset | undefined;
  /** Bumped to bring the card into view with its style check open ('Generate all' asks so). */
  findingsRequest?: number | undefined;
};

/**
 * One channel's asset: its status, its text as it reads, its counts against the channel's limits,
 * what it was made from, Copy; for the campaign's owner and editors, Generate from brief,
 * Regenerate with an instruction, Edit by hand and Restore; its versions for everyone.
 */
export function AssetCard({ campaign, channel, asset, findingsRequest }: AssetCardProps) {
  const { label } = campaignChannels[channel];
  const texts = useMemo<GenerationTexts>(
    () => ({ failure: `Error generating ${label}`, empty: 'Error occurred, please try again' }),
    [label],
  );
  const generation = useAssetGeneration(campaign.id, channel, texts);
  const editable = campaign.role !== 'reader';
  const hasText = Boolean(asset && asset.version > 0);
  const details = useCampaignAsset(campaign.id, channel, hasText);
  const [panel, setPanel] = useState<OpenPanel>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [styleOpen, setStyleOpen] = useState(false);
  const [draft, setDraft] = useState<AssetDraft | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const headingId = useId();
  const panelId = useId();
  const versionsId = useId();
  const styleId = useId();
  const stopRef = useRef<HTMLButtonElement>(null);
  const styleRef = useRef<HTMLDivElement>(null);
  const [seenRequest, setSeenRequest] = useState(findingsRequest);
  if (seenRequest !== findingsRequest) {
    setSeenRequest(findingsRequest);
    if (findingsRequest) setStyleOpen(true);
  }
  useEffect(() => {
    // Asked for from 'Generate all' (the check opened as this rendered): in view, the keyboard there.
    if (!findingsRequest) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)')?.matches;
    styleRef.current?.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
    styleRef.current?.focus({ preventScroll: true });
  }, [findingsRequest]);

  const { state } = generation;
  const streaming = state.status === 'streaming';
  const showGenerated = generation.isBusy;
  const shownText = showGenerated ? state.text : (asset?.text ?? '');
  // Someone else (another editor, another tab) holds the asset's lease.
  const elsewhere = !generation.isBusy && asset?.generating ? asset.generating : null;

  useEffect(() => {
    // A preset's button was just disabled under the keyboard: hand focus to Stop.
    if (streaming && focusWasLost()) stopRef.current?.focus();
  }, [streaming]);

  const listed = asset?.version;
  const { data: known, isFetching: refreshing, refetch } = details;
  useEffect(() => {
    // Someone else saved or generated it (the list, asked again, says so): its versions too.
    if (known && listed !== undefined && listed !== known.version && !refreshing) void refetch();
  }, [listed, known, refreshing, refetch]);

  function toggle(next: Exclude<OpenPanel, null>) {
    setPanel((was) => (was === next ? null : next));
    if (next === 'edit' && !draft && asset) setDraft({ text: asset.text, base: asset.version });
    generation.dismiss();
  }

  const generatedAt = asset?.provenance
    ? details.data?.versions.find((v) => v.provenance?.generationId === asset.provenance?.generationId)
        ?.createdAt
    : undefined;
  const edited = Boolean(
    details.data &&
    details.data.versions.find((v) => v.version === details.data.version)?.kind !== 'generated',
  );

  return (
    <li>
      <Panel as="article" className={styles.card} aria-labelledby={headingId} aria-busy={streaming}>
        <div className={styles.cardHeader}>
          <div className={styles.titleRow}>
            <h3 id={headingId} className={styles.cardTitle}>
              {label}
            </h3>
            {asset && hasText ? (
              <Badge tone={assetStatusTones[asset.status]}>{assetStatusLabels[asset.status]}</Badge>
            ) : (
              <Badge>Not written yet</Badge>
            )}
            {asset && hasText ? <span className={styles.version}>Version {asset.version}</span> : null}
            {asset?.provenance?.model === 'demo' ? <Badge tone="brand">{DEMO_ANSWER_TEXT}</Badge> : null}
            {asset?.style && hasText && !showGenerated ? <StyleScore style={asset.style} /> : null}
          </div>
          {editable && asset && hasText ? <StatusSelect campaignId={campaign.id} asset={asset} /> : null}
        </div>

        {elsewhere ? (
          <p className={styles.muted} role="status">
            <span className={outputStyles.writing}>
              <span className={outputStyles.pulse} aria-hidden="true" />
              {elsewhere.by.name} is generating this {label} now.
            </span>{' '}
            Its text appears here when it is saved.
          </p>
        ) : null}
        {state.problem ? <GenerationProblemAlert problem={state.problem} /> : null}
        {!state.problem && !generation.isBusy && asset?.lastError ? (
          <p className={styles.muted}>The last generation did not finish: {asset.lastError}</p>
        ) : null}

        <div className={styles.preview} aria-live="polite" aria-busy={streaming}>
          {showGenerated ? (
            state.text ? (
              <FormattedOutput text={state.text} />
            ) : (
              <div className={outputStyles.skeleton}>
                <span className="visually-hidden">GEM is writing…</span>
                <span className={outputStyles.bar} aria-hidden="true" />
                <span className={outputStyles.bar} aria-hidden="true" />
                <span className={outputStyles.bar} aria-hidden="true" />
              </div>
            )
          ) : hasText ? (
            <FormattedOutput text={asset!.text} />
          ) : (
            <p className={styles.placeholder}>
              No {label} yet.
              {editable ? ' Generate it from the brief, or from inputs you change first.' : ''}
            </p>
          )}
        </div>
        {streaming ? (
          <div className={styles.writingRow}>
            <span className={outputStyles.writing}>
              <span className={outputStyles.pulse} aria-hidden="true" />
              Writing…
            </span>
            <Button
              ref={stopRef}
              variant="secondary"
              className={outputStyles.stop}
              onClick={generation.cancel}
            >
              <StopIcon />
              Stop
            </Button>
          </div>
        ) : null}
        {state.status === 'cancelled' ? (
          <p className={styles.muted} role="status">
            You stopped the writing: nothing was saved, and the {label} is as it was.
          </p>
        ) : null}

        {shownText ? <AssetCounts channel={channel} text={shownText} /> : null}
        {hasText && asset?.provenance && !showGenerated ? (
          <AssetProvenance provenance={asset.provenance} generatedAt={generatedAt} edited={edited} />
        ) : null}
        {hasText && asset && !showGenerated ? (
          <AssetTrackedLinks
            campaignId={campaign.id}
            campaignName={campaign.name}
            asset={asset}
            editable={editable}
          />
        ) : null}

        <div className={styles.actions}>
          {hasText ? <CopyButton text={asset!.text} label="Copy" describedBy={headingId} /> : null}
          {editable ? (
            <Button
              variant={hasText ? 'secondary' : 'brand'}
              aria-expanded={panel === 'generate'}
              aria-controls={panelId}
              disabled={Boolean(elsewhere)}
              onClick={() => toggle('generate')}
            >
              Generate from brief
            </Button>
          ) : null}
          {editable && hasText ? (
            <>
              <Button
                variant="secondary"
                aria-expanded={panel === 'regenerate'}
                aria-controls={panelId}
                disabled={Boolean(elsewhere)}
                onClick={() => toggle('regenerate')}
              >
                Regenerate
              </Button>
              <Button
                variant="secondary"
                aria-expanded={panel === 'edit'}
                aria-controls={panelId}
                onClick={() => toggle('edit')}
              >
                {draft && asset && draft.text !== asset.text ? 'Edit (unsaved changes)' : 'Edit'}
              </Button>
            </>
          ) : null}
          {hasText && !showGenerated ? (
            // Issue 31: the asset's text against the brand profile and its channel's rules.
            <Button
              variant="secondary"
              aria-expanded={styleOpen}
              aria-controls={styleId}
              onClick={() => setStyleOpen((was) => !was)}
            >
              {styleOpen ? 'Hide check' : 'Check'}
            </Button>
          ) : null}
          {hasText ? (
            <Button
              variant="secondary"
              aria-expanded={versionsOpen}
              aria-controls={versionsId}
              onClick={() => setVersionsOpen((was) => !was)}
            >
              {versionsOpen ? 'Hide versions' : 'Versions'}
            </Button>
          ) : null}
        </div>
        <p className="visually-hidden" role="status">
          {announcement}
        </p>

        <div id={panelId} hidden={panel === null}>
          {panel === 'generate' ? (
            <AssetInputsForm
              campaignId={campaign.id}
              channel={channel}
              briefVersion={campaign.briefVersion}
              generation={generation}
              onClose={() => setPanel(null)}
            />
          ) : panel === 'regenerate' ? (
            <AssetRegenerate channel={channel} generation={generation} onClose={() => setPanel(null)} />
          ) : panel === 'edit' && draft && asset ? (
            <AssetEditor
              campaignId={campaign.id}
              channel={channel}
              asset={asset}
              draft={draft}
              onDraftChange={setDraft}
              onClose={() => setPanel(null)}
              announce={setAnnouncement}
            />
          ) : null}
        </div>
        <div
          id={styleId}
          ref={styleRef}
          tabIndex={-1}
          className={styles.stylePanel}
          aria-label={`Brand voice check of the ${label}`}
          hidden={!styleOpen}
        >
          {styleOpen && hasText && asset && !showGenerated ? (
            <AssetStyle campaignId={campaign.id} channel={channel} asset={asset} editable={editable} />
          ) : null}
        </div>
        <div id={versionsId} hidden={!versionsOpen}>
          {versionsOpen && hasText ? (
            <AssetVersions
              campaignId={campaign.id}
              channel={channel}
              editable={editable}
              announce={setAnnouncement}
            />
          ) : null}
        </div>
      </Panel>
    </li>
  );
}

/** Draft → In review → Approved (or back), for the campaign's owner and editors. */
function StatusSelect({ campaignId, asset }: { campaignId: string; asset: CampaignAsset }) {
  const update = useUpdateAsset(campaignId, asset.channel);
  const id = useId();
  const { label } = campaignChannels[asset.channel];
  const value = (update.isPending && update.variables?.status) || asset.status;
  return (
    <div className={styles.statusField}>
      <div className={styles.statusInline}>
        <label className={styles.fieldLabel} htmlFor={id}>
          Status<span className="visually-hidden"> of the {label}</span>
        </label>
        <SelectInput
          id={id}
          density="compact"
          value={value}
          disabled={update.isPending}
          aria-describedby={update.error ? `${id}-error` : undefined}
          onChange={(event) => update.mutate({ status: event.target.value as AssetStatus })}
        >
          {assetStatuses.map((status) => (
            <option key={status} value={status}>
              {assetStatusLabels[status]}
            </option>
          ))}
        </SelectInput>
      </div>
      {update.error ? (
        <p id={`${id}-error`} className={styles.fieldError} role="alert">
          {problemText(update.error, 'The status could not be changed. Please try again.')}
        </p>
      ) : null}
    </div>
  );
}

/** Focus is nowhere useful: on the page itself, or on a button that was just disabled. */
function focusWasLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || (active instanceof HTMLButtonElement && active.disabled);
}
