import { brandTargetIds, type BrandTarget, type StyleCheck } from '@gem/contracts/brand-voice';
import type {
  GenerationOutput,
  GenerationRecord,
  WritingToolInput,
  WritingToolName,
} from '@gem/contracts/writing-tools';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

import { refreshAiAllowance } from '@/lib/ai/get-ai-allowance';
import { aiStatusQueryOptions } from '@/lib/ai/get-ai-status';
import { generationHistoryQueryOptions } from './get-generation-history';
import {
  describeGenerationError,
  emptyResult,
  type GenerationProblem,
  type GenerationTexts,
} from '@/lib/ai/generation-errors';
import { streamGeneration } from '@/lib/ai/generation-stream';

export type GenerationStatus = 'idle' | 'streaming' | 'succeeded' | 'failed' | 'cancelled';

export type GenerationState = {
  status: GenerationStatus;
  /** What the page shows: the text so far while streaming, then the final text. */
  text: string;
  /** The final output, once the server has checked the limits. */
  output: GenerationOutput | null;
  /** Spec §8: shown in place of the output. */
  problem: GenerationProblem | null;
  /** The final event's style check of the output (issue 31): for paid ads, of the copy. */
  style?: StyleCheck | null;
  /** What the output is written for, for a style check on demand (a tool that is a brand target). */
  target?: BrandTarget | undefined;
  /**
   * Replaces the checked part of the output (the text; paid ads' copy) with an edited one: the
   * style check's Apply, Apply all and Undo. What the page shows and copies follows.
   */
  revise?: (text: string) => void;
  /** Counts the outputs shown (a generation, a restored one): a new one starts a new style check. */
  run?: number;
};

const idle: GenerationState = { status: 'idle', text: '', output: null, problem: null };

/** The part of an output the style check reads and Apply changes: paid ads' copy, else the text. */
export function styledText(output: GenerationOutput): string {
  return output.copy ?? output.text;
}

/** The output with its checked part replaced by `text` (paid ads: the copy, inside the whole text too). */
export function revisedOutput(output: GenerationOutput, text: string): GenerationOutput {
  if (output.copy === undefined) return { ...output, text };
  const at = output.text.lastIndexOf(output.copy);
  const whole =
    at < 0 ? output.text : output.text.slice(0, at) + text + output.text.slice(at + output.copy.length);
  return { ...output, copy: text, text: whole };
}

/**
 * The style check stored with the history entry of `output` (the entry the page took it from;
 * else one with the same text), or null when none was stored.
 */
export function storedStyleOf(
  items: readonly GenerationRecord[],
  output: GenerationOutput,
): StyleCheck | null {
  const entry =
    items.find((item) => item.output === output) ??
    items.find((item) => item.output?.text === output.text && item.output.copy === output.copy);
  return entry?.style ?? null;
}

const isBrandTarget = (name: string): name is BrandTarget =>
  (brandTargetIds as readonly string[]).includes(name);

/**
 * Runs one tool's generations: streams the answer into `state.text` as it is written
 * ('delta' appends, 'restart' clears, 'final' replaces), maps failures to the spec's texts,
 * and refreshes the tool's history. Starting again, restoring, or leaving the page aborts
 * the request in flight, which also stops the model call on the server.
 */
export function useGeneration<N extends WritingToolName>(name: N, texts: GenerationTexts) {
  const queryClient = useQueryClient();
  const [inner, setState] = useState<GenerationState>(idle);
  const [run, setRun] = useState(0);
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const generate = useCallback(
    async (input: WritingToolInput<N>): Promise<GenerationOutput | null> => {
      current.current?.abort();
      const own = new AbortController();
      current.current = own;
      const isCurrent = () => current.current === own;
      setState({ status: 'streaming', text: '', output: null, problem: null });
      setRun((n) => n + 1);
      let style: StyleCheck | null = null;
      try {
        const { output } = await streamGeneration(name, input, {
          signal: own.signal,
          onEvent: (event) => {
            if (!isCurrent()) return;
            if (event.type === 'delta') setState((s) => ({ ...s, text: s.text + event.text }));
            else if (event.type === 'restart') setState((s) => ({ ...s, text: '' }));
            else if (event.type === 'final') style = event.style ?? null;
          },
        });
        if (!isCurrent()) return null;
        if (output.text.trim() === '') {
          setState({ status: 'failed', text: '', output: null, problem: emptyResult(texts) });
          return null;
        }
        setState({ status: 'succeeded', text: output.text, output, problem: null, style });
        return output;
      } catch (error) {
        if (!isCurrent()) return null;
        if (own.signal.aborted) {
          // Stopped by the user: keep what was written so far.
          setState((s) => ({ ...s, status: 'cancelled' }));
          return null;
        }
        const problem = describeGenerationError(error, texts);
        if (problem.notConfigured) {
          queryClient.setQueryData(aiStatusQueryOptions.queryKey, {
            configured: false,
            provider: null,
            model: null,
          });
        }
        setState({ status: 'failed', text: '', output: null, problem });
        return null;
      } finally {
        if (isCurrent()) current.current = null;
        void queryClient.invalidateQueries({ queryKey: generationHistoryQueryOptions(name).queryKey });
        refreshAiAllowance(queryClient);
      }
    },
    [name, texts, queryClient],
  );

  /** The stop control: aborts the request; what was written so far stays. */
  const cancel = useCallback(() => current.current?.abort(), []);

  /**
   * Shows an earlier output (from the history), or nothing; drops a request in flight. The style
   * check stored with the history entry comes back with it, so the panel shows its findings.
   */
  const restore = useCallback(
    (output: GenerationOutput | null) => {
      const running = current.current;
      current.current = null;
      running?.abort();
      if (output) {
        const history = queryClient.getQueryData(generationHistoryQueryOptions(name).queryKey);
        const style = storedStyleOf(history?.items ?? [], output);
        setState({ status: 'succeeded', text: output.text, output, problem: null, style });
      } else setState(idle);
      setRun((n) => n + 1);
    },
    [name, queryClient],
  );

  /** The style check's Apply, Apply all and Undo: the shown (and copied) output changes. */
  const revise = useCallback((text: string) => {
    setState((s) => {
      if (!s.output) return s;
      const output = revisedOutput(s.output, text);
      return { ...s, output, text: output.text };
    });
  }, []);

  const target = isBrandTarget(name) ? name : undefined;
  const state = useMemo(() => ({ ...inner, target, revise, run }), [inner, target, revise, run]);
  return { state, isGenerating: state.status === 'streaming', generate, cancel, restore };
}
