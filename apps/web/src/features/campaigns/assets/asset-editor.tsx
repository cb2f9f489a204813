import { tooLongForChannel, type CampaignAsset } from '@gem/contracts/campaign-assets';
import { campaignChannels, type CampaignChannelId } from '@gem/contracts/campaign-channels';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';

import { Button } from '@/components/ui/button';
import { TextArea } from '@/components/ui/fields';
import { FormattedOutput } from '@/components/ui/formatted-output';
import { ApiError } from '@/lib/api-client';

import { problemText } from '../problem-text';
import { campaignAssetQueryOptions, useCampaignAsset } from './api/get-campaign-asset';
import { campaignAssetsQueryOptions } from './api/get-campaign-assets';
import { useRestoreAssetVersion } from './api/restore-asset-version';
import { useSaveAsset } from './api/save-asset';
import { AssetConflict } from './asset-conflict';
import { AssetCounts } from './asset-counts';
import styles from './campaign-assets.module.css';

/** What the user is typing, kept by the card until it is saved or given up on purpose. */
export type AssetDraft = {
  text: string;
  /** The version the edit began on: a save made on an older one than the newest is a 409. */
  base: number;
  /** The save was refused because someone saved first: the text the server kept as a version. */
  conflict?: { text: string } | undefined;
};

type AssetEditorProps = {
  campaignId: string;
  channel: CampaignChannelId;
  asset: CampaignAsset;
  draft: AssetDraft;
  onDraftChange: (draft: AssetDraft | null) => void;
  onClose: () => void;
  /** A line for the card's status region ('Saved as version 4.'). */
  announce: (message: string) => void;
};

/**
 * Edit by hand: the text beside its formatted preview, counted against the channel's limits as it
 * is typed; Save makes it the next version. Nothing typed is lost: the draft stays until it is
 * saved, and a save refused because someone saved first (409) shows both texts to choose from.
 */
export function AssetEditor({
  campaignId,
  channel,
  asset,
  draft,
  onDraftChange,
  onClose,
  announce,
}: AssetEditorProps) {
  const queryClient = useQueryClient();
  const save = useSaveAsset(campaignId, channel);
  const restore = useRestoreAssetVersion(campaignId, channel);
  const details = useCampaignAsset(campaignId, channel, true);
  const headingId = useId();
  const fieldId = useId();
  const { label } = campaignChannels[channel];
  const tooLong = tooLongForChannel(channel, draft.text);
  const empty = draft.text.trim() === '';
  const saveError =
    save.error && !(save.error instanceof ApiError && save.error.status === 409)
      ? problemText(save.error, 'The text could not be saved. Please try again.')
      : null;

  function submit() {
    if (tooLong || empty || save.isPending || draft.conflict) return;
    const text = draft.text;
    save.mutate(
      { text, baseVersion: draft.base },
      {
        onSuccess: (saved) => {
          onDraftChange(null);
          onClose();
          announce(`Saved as version ${saved.version}.`);
        },
        onError: (error) => {
          if (!(error instanceof ApiError && error.status === 409)) return;
          // Someone saved or generated first; the server kept this text as a version of its own.
          onDraftChange({ ...draft, conflict: { text } });
          void queryClient.invalidateQueries({
            queryKey: campaignAssetQueryOptions(campaignId, channel).queryKey,
            exact: true,
          });
          void queryClient.invalidateQueries({
            queryKey: campaignAssetsQueryOptions(campaignId).queryKey,
            exact: true,
          });
        },
      },
    );
  }

  const mine = draft.conflict
    ? details.data?.versions.find((v) => v.kind === 'conflict' && v.text === draft.conflict?.text)
    : undefined;

  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h4 id={headingId} className={styles.panelTitle}>
          Edit the {label}
        </h4>
        <p className={styles.muted}>
          Saving makes your text the next version; every earlier version stays in the list.
        </p>
      </div>
      {draft.conflict ? (
        <AssetConflict
          label={label}
          base={draft.base}
          // Asked again after the 409 once it holds the user's text as a version of its own.
          theirs={mine ? (details.data ?? null) : null}
          mine={{ text: draft.conflict.text, version: mine?.version ?? null }}
          busy={restore.isPending}
          error={restore.error ? problemText(restore.error, 'Your version could not be restored.') : null}
          onKeepMine={() => {
            if (!mine) return;
            restore.mutate(mine.version, {
              onSuccess: (restored) => {
                onDraftChange(null);
                onClose();
                announce(`Your text is now the ${label}, as version ${restored.version}.`);
              },
            });
          }}
          onKeepTheirs={() => {
            onDraftChange(null);
            onClose();
            announce(
              `Kept version ${details.data?.version ?? asset.version}.${mine ? ` Your text stays in the versions as version ${mine.version}.` : ''}`,
            );
          }}
          onEditMine={() => onDraftChange({ text: draft.text, base: details.data?.version ?? asset.version })}
        />
      ) : null}
      <form
        className={styles.fields}
        aria-labelledby={headingId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className={styles.editorColumns}>
          <div className={styles.editorField}>
            <label className={styles.fieldLabel} htmlFor={fieldId}>
              Text of the {label}
            </label>
            <TextArea
              id={fieldId}
              className={styles.editorText}
              value={draft.text}
              onChange={(event) => onDraftChange({ ...draft, text: event.target.value })}
              aria-invalid={tooLong || empty ? true : undefined}
              aria-describedby={`${fieldId}-counts${tooLong || empty || saveError ? ` ${fieldId}-error` : ''}`}
              spellCheck
            />
            <div id={`${fieldId}-counts`}>
              <AssetCounts channel={channel} text={draft.text} live />
            </div>
            {tooLong || empty || saveError ? (
              <p id={`${fieldId}-error`} className={styles.fieldError} role="alert">
                {tooLong ?? (empty ? 'The text is empty.' : saveError)}
              </p>
            ) : null}
          </div>
          <div className={styles.editorField}>
            <p className={styles.sideLabel} id={`${fieldId}-preview`}>
              Preview
            </p>
            <div
              className={styles.livePreview}
              role="group"
              aria-labelledby={`${fieldId}-preview`}
              // A long text scrolls in its box: a keyboard can reach it to scroll it.
              tabIndex={0}
            >
              {empty ? (
                <p className={styles.muted}>Nothing to show yet.</p>
              ) : (
                <FormattedOutput text={draft.text} />
              )}
            </div>
          </div>
        </div>
        <div className={styles.panelActions}>
          <Button
            type="submit"
            disabled={Boolean(tooLong) || empty || save.isPending || Boolean(draft.conflict)}
            aria-busy={save.isPending || undefined}
          >
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button
            variant="secondary"
            disabled={save.isPending}
            onClick={() => {
              onDraftChange(null);
              onClose();
            }}
          >
            Discard my changes
          </Button>
        </div>
        <p className={styles.muted}>Close keeps what you typed here until you come back to it.</p>
      </form>
    </section>
  );
}
