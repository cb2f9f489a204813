import type { StyleCheck } from '@gem/contracts/brand-voice';
import type { GenerateAllEvent } from '@gem/contracts/campaign-assets';
import { campaignChannels, channelsOfBrief, type CampaignChannelId } from '@gem/contracts/campaign-channels';
import type { Campaign } from '@gem/contracts/campaigns';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';

import { Button } from '@/components/ui/button';
import { formatInteger as formatCount } from '@/lib/format-number';

import { campaignActivityQueryOptions } from '../api/get-campaign-activity';
import { problemText } from '../problem-text';
import { generateAll } from './api/generate-all';
import { campaignAssetsQueryOptions } from './api/get-campaign-assets';
import { StyleScore } from './asset-style-score';
import styles from './campaign-assets.module.css';

/** Where one asset of the run stands. */
type Progress =
  | { state: 'queued' }
  | { state: 'writing'; characters: number }
  | { state: 'saved'; version: number; style: StyleCheck | null }
  | { state: 'failed'; message: string }
  | { state: 'busy' };

type Run = {
  status: 'running' | 'done' | 'stopped' | 'failed';
  channels: CampaignChannelId[];
  progress: Partial<Record<CampaignChannelId, Progress>>;
  message?: string;
};

function progressText(progress: Progress | undefined): string {
  switch (progress?.state) {
    case undefined:
    case 'queued':
      return 'Waiting for its turn';
    case 'writing':
      return `Writing… ${formatCount(progress.characters)} characters so far`;
    case 'saved':
      return `Saved as version ${progress.version}`;
    case 'failed':
      return `Failed: ${progress.message} Generate it again from its card.`;
    case 'busy':
      return 'Someone else is generating it: left to them';
  }
}

/** The run's state after one line of the server's stream. */
function advance(run: Run, event: GenerateAllEvent): Run {
  const set = (channel: CampaignChannelId, progress: Progress): Run => ({
    ...run,
    progress: { ...run.progress, [channel]: progress },
  });
  switch (event.type) {
    case 'started':
      return {
        ...run,
        channels: [...event.channels, ...event.busy],
        progress: Object.fromEntries([
          ...event.channels.map((c) => [c, { state: 'queued' }] as const),
          ...event.busy.map((c) => [c, { state: 'busy' }] as const),
        ]),
      };
    case 'delta': {
      const was = run.progress[event.channel];
      const characters = (was?.state === 'writing' ? was.characters : 0) + [...event.text].length;
      return set(event.channel, { state: 'writing', characters });
    }
    case 'restart':
      return set(event.channel, { state: 'writing', characters: 0 });
    case 'saved':
      return set(event.channel, { state: 'saved', version: event.version, style: event.style ?? null });
    case 'failed':
      return set(event.channel, { state: 'failed', message: event.error.message });
    case 'end':
      return { ...run, status: 'done' };
  }
}

/**
 * 'Generate all' (issue 29): every asset the brief's channels call for, from the brief, streamed
 * with each asset's progress; at most as many at once as the user's AI limit allows, and one
 * failure does not stop the others. Each asset's card shows its new version as soon as it is saved.
 */
export function GenerateAll({
  campaign,
  onShowFindings,
}: {
  campaign: Campaign;
  /** Takes the page to the asset's card with its style check open (issue 31). */
  onShowFindings?: (channel: CampaignChannelId) => void;
}) {
  const queryClient = useQueryClient();
  const channels = channelsOfBrief(campaign.brief.channels);
  const [confirming, setConfirming] = useState(false);
  const [run, setRun] = useState<Run | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: campaignAssetsQueryOptions(campaign.id).queryKey }),
      queryClient.invalidateQueries({ queryKey: campaignActivityQueryOptions(campaign.id).queryKey }),
    ]);

  async function start() {
    setConfirming(false);
    const own = new AbortController();
    controller.current = own;
    setRun({ status: 'running', channels, progress: {} });
    try {
      await generateAll(campaign.id, {
        signal: own.signal,
        onEvent: (event) => {
          setRun((was) => (was ? advance(was, event) : was));
          if (event.type === 'saved' || event.type === 'failed' || event.type === 'started') void refresh();
        },
      });
    } catch (error) {
      setRun((was) =>
        was
          ? own.signal.aborted
            ? { ...was, status: 'stopped' }
            : { ...was, status: 'failed', message: problemText(error, 'Please try again.') }
          : was,
      );
    } finally {
      controller.current = null;
      void refresh();
    }
  }

  if (channels.length === 0) return null;
  const running = run?.status === 'running';
  const list = run?.channels ?? channels;
  const saved = list.filter((c) => run?.progress[c]?.state === 'saved').length;
  const failed = list.filter((c) => run?.progress[c]?.state === 'failed').length;
  const ended = list.filter((c) =>
    ['saved', 'failed', 'busy'].includes(run?.progress[c]?.state ?? ''),
  ).length;

  return (
    <div className={styles.generateAll}>
      <div className={styles.generateAllHeader}>
        <p className={styles.intro}>
          Write all {formatCount(channels.length)} assets the brief calls for at once:{' '}
          {channels.map((c) => campaignChannels[c].label).join(', ')}.
        </p>
        {running ? (
          <Button variant="secondary" onClick={() => controller.current?.abort()}>
            Stop
          </Button>
        ) : confirming ? null : (
          <Button onClick={() => setConfirming(true)}>Generate all</Button>
        )}
      </div>
      {confirming ? (
        <div className={styles.generateAllConfirm} role="group" aria-label="Confirm Generate all">
          <p>
            Each asset gets a new version written from the brief. The texts they have now stay in their
            versions, so nothing is lost.
          </p>
          <div className={styles.generateAllActions}>
            <Button onClick={() => void start()}>Generate {formatCount(channels.length)} assets</Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
      {run ? (
        <div className={styles.generateAllProgress}>
          <label className={styles.fieldLabel}>
            <span aria-live="polite">
              {running
                ? `Generating: ${formatCount(ended)} of ${formatCount(list.length)} done`
                : run.status === 'done'
                  ? `Done: ${formatCount(saved)} saved${failed ? `, ${formatCount(failed)} failed` : ''}`
                  : run.status === 'stopped'
                    ? 'Stopped. What was saved before stays saved.'
                    : `Generate all failed. ${run.message ?? ''}`}
            </span>
            <progress max={list.length} value={ended} className={styles.generateAllBar} />
          </label>
          <ul className={styles.generateAllList} aria-label="Progress by asset">
            {list.map((channel) => {
              const progress = run.progress[channel];
              const style = progress?.state === 'saved' ? progress.style : null;
              const { label } = campaignChannels[channel];
              const see = style && style.findings.length > 0 ? 'See the findings' : 'See the check';
              return (
                <li key={channel} data-state={progress?.state ?? 'queued'}>
                  <strong>{label}</strong>
                  <span>{progressText(progress)}</span>
                  {style ? (
                    <span className={styles.generateAllStyle}>
                      <StyleScore style={style} />
                      {onShowFindings ? (
                        <button
                          type="button"
                          className={styles.linkButton}
                          aria-label={`${see} of the ${label}`}
                          onClick={() => onShowFindings(channel)}
                        >
                          {see}
                        </button>
                      ) : null}
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
