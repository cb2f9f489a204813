import type { GenerationOutput, WritingToolInput, WritingToolName } from '@gem/contracts/writing-tools';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';

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
};

const idle: GenerationState = { status: 'idle', text: '', output: null, problem: null };

/**
 * Runs one tool's generations: streams the answer into `state.text` as it is written
 * ('delta' appends, 'restart' clears, 'final' replaces), maps failures to the spec's texts,
 * and refreshes the tool's history. Starting again, restoring, or leaving the page aborts
 * the request in flight, which also stops the model call on the server.
 */
export function useGeneration<N extends WritingToolName>(name: N, texts: GenerationTexts) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<GenerationState>(idle);
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const generate = useCallback(
    async (input: WritingToolInput<N>): Promise<GenerationOutput | null> => {
      current.current?.abort();
      const own = new AbortController();
      current.current = own;
      const isCurrent = () => current.current === own;
      setState({ status: 'streaming', text: '', output: null, problem: null });
      try {
        const { output } = await streamGeneration(name, input, {
          signal: own.signal,
          onEvent: (event) => {
            if (!isCurrent()) return;
            if (event.type === 'delta') setState((s) => ({ ...s, text: s.text + event.text }));
            else if (event.type === 'restart') setState((s) => ({ ...s, text: '' }));
          },
        });
        if (!isCurrent()) return null;
        if (output.text.trim() === '') {
          setState({ status: 'failed', text: '', output: null, problem: emptyResult(texts) });
          return null;
        }
        setState({ status: 'succeeded', text: output.text, output, problem: null });
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

  /** Shows an earlier output (from the history), or nothing; drops a request in flight. */
  const restore = useCallback((output: GenerationOutput | null) => {
    const running = current.current;
    current.current = null;
    running?.abort();
    setState(output ? { status: 'succeeded', text: output.text, output, problem: null } : idle);
  }, []);

  return { state, isGenerating: state.status === 'streaming', generate, cancel, restore };
}
