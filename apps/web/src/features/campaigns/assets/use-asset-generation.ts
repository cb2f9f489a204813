import type { GenerateAssetRequest } from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import type { ValidationIssue } from '@gem/contracts/errors';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';

import { aiStatusQueryOptions } from '@/lib/ai/get-ai-status';
import {
  describeGenerationError,
  emptyResult,
  type GenerationProblem,
  type GenerationTexts,
} from '@/lib/ai/generation-errors';
import { ApiError } from '@/lib/api-client';
import type { GenerationState } from '@/lib/writing-tools/use-generation';

import { campaignActivityQueryOptions } from '../api/get-campaign-activity';
import { generateAsset } from './api/generate-asset';
import { campaignAssetQueryOptions } from './api/get-campaign-asset';
import { campaignAssetsQueryOptions } from './api/get-campaign-assets';

export type AssetGenerationState = GenerationState & {
  /** The fields a 400 named, by the input's own key (`body.input.task` is `task`). */
  fieldErrors: Record<string, string>;
};

const idle: AssetGenerationState = {
  status: 'idle',
  text: '',
  output: null,
  problem: null,
  fieldErrors: {},
};

/**
 * The server's words for what only a campaign's asset answers: someone else is generating it
 * (409, naming who), or the user may no longer change it (403, 404).
 */
function describe(error: unknown, texts: GenerationTexts): GenerationProblem {
  const problem = describeGenerationError(error, texts);
  if (error instanceof ApiError && [403, 404, 409].includes(error.status) && !problem.detail) {
    return { ...problem, detail: error.message };
  }
  return problem;
}

function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const prefix = 'body.input.';
  const errors: Record<string, string> = {};
  error.issues.forEach((issue: ValidationIssue) => {
    if (issue.path.startsWith(prefix)) errors[issue.path.slice(prefix.length)] ??= issue.message;
  });
  return errors;
}

/**
 * One asset's generations, as useGeneration runs a writing tool's: the text streams in as it is
 * written ('delta' appends, 'restart' clears), failures read as the tools' do. The server has
 * saved the text as a version before its final event; the final text stays shown until the
 * asset has been asked for again, then the asset's own text takes over (`status` back to idle).
 * Leaving the page or Stop aborts the request, which also stops the model call on the server.
 */
export function useAssetGeneration(campaignId: string, channel: CampaignChannelId, texts: GenerationTexts) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AssetGenerationState>(idle);
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const refresh = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({
          queryKey: campaignAssetsQueryOptions(campaignId).queryKey,
          exact: true,
        }),
        queryClient.invalidateQueries({
          queryKey: campaignAssetQueryOptions(campaignId, channel).queryKey,
          exact: true,
        }),
        queryClient.invalidateQueries({ queryKey: campaignActivityQueryOptions(campaignId).queryKey }),
      ]),
    [campaignId, channel, queryClient],
  );

  const generate = useCallback(
    async (request: GenerateAssetRequest): Promise<boolean> => {
      current.current?.abort();
      const own = new AbortController();
      current.current = own;
      const isCurrent = () => current.current === own;
      setState({ ...idle, status: 'streaming' });
      try {
        const { output } = await generateAsset(campaignId, channel, request, {
          signal: own.signal,
          onEvent: (event) => {
            if (!isCurrent()) return;
            if (event.type === 'delta') setState((s) => ({ ...s, text: s.text + event.text }));
            else if (event.type === 'restart') setState((s) => ({ ...s, text: '' }));
          },
        });
        if (!isCurrent()) return false;
        // The asset is the ad copy of paid ads, not their analysis (as the server keeps it).
        const text = (output.copy ?? output.text).trim();
        if (text === '') {
          setState({ ...idle, status: 'failed', problem: emptyResult(texts) });
          void refresh();
          return false;
        }
        setState({ ...idle, status: 'succeeded', text, output });
        await refresh();
        if (isCurrent()) setState(idle);
        return true;
      } catch (error) {
        if (!isCurrent()) return false;
        if (own.signal.aborted) {
          // Stopped by the user: nothing was saved; the asset shows its text as it was.
          setState({ ...idle, status: 'cancelled' });
          void refresh();
          return false;
        }
        const problem = describe(error, texts);
        if (problem.notConfigured) {
          queryClient.setQueryData(aiStatusQueryOptions.queryKey, {
            configured: false,
            provider: null,
            model: null,
          });
        }
        setState({ ...idle, status: 'failed', problem, fieldErrors: fieldErrorsOf(error) });
        void refresh();
        return false;
      } finally {
        if (isCurrent()) current.current = null;
      }
    },
    [campaignId, channel, texts, queryClient, refresh],
  );

  /** The stop control: aborts the request; the server keeps nothing of it. */
  const cancel = useCallback(() => current.current?.abort(), []);

  /** Forgets the last outcome (a problem, 'Stopped'). */
  const dismiss = useCallback(() => {
    if (!current.current) setState(idle);
  }, []);

  return {
    state,
    /** Writing, or saved and waiting for the asset to be asked for again. */
    isBusy: state.status === 'streaming' || state.status === 'succeeded',
    generate,
    cancel,
    dismiss,
  };
}
