import { countCharacters, type GenerationOutput } from '@gem/contracts/generators';
import {
  addUsage,
  LlmError,
  type ChatTurn,
  type TextModel,
  type TokenUsage,
} from '../../integrations/llm/text-model';
import { cutToLimit } from './text-limit';

/**
 * One generation, from prompt to final output: streams the model's answer, then enforces the
 * tool's character limit. Over the limit, the model is asked once to shorten (the page is
 * told to clear what it showed, and the new attempt streams); still over, the answer is cut
 * (lib/text-limit.ts says where). Knows nothing of HTTP or the database.
 */

export type Prompt = { system: string; user: string };

/** A limit that is enforced, not only asked for (spec §5, §9). */
export type OutputLimit = {
  maxCharacters: number;
  /**
   * Finds the part of an answer the limit counts (the whole article; the paid-ads copy) and
   * how to build the output around a replacement for that part.
   */
  parse(answer: string): ParsedAnswer;
  /** The follow-up turn (Polish) asking once for a shorter answer; `characters` is its length now. */
  shortenRequest(characters: number): string;
};

export type ParsedAnswer = {
  limited: string;
  output(limited: string): Pick<GenerationOutput, 'text' | 'analysis' | 'copy'>;
};

export type PipelineEvent = { type: 'delta'; text: string } | { type: 'restart' };

export type PipelineResult = {
  output: GenerationOutput;
  usage: TokenUsage;
  model: string;
};

export type PipelineOptions = {
  model: TextModel;
  prompt: Prompt;
  limit?: OutputLimit | undefined;
  signal: AbortSignal;
  maxOutputTokens?: number | undefined;
  /** The shortening call failed; the first answer is cut instead. */
  onShortenFailed?: (err: unknown) => void;
};

export async function* runGeneration(
  options: PipelineOptions,
): AsyncGenerator<PipelineEvent, PipelineResult> {
  const { model, prompt, limit, signal, maxOutputTokens } = options;
  const conversation: ChatTurn[] = [{ role: 'user', content: prompt.user }];
  const request = { system: prompt.system, signal, maxOutputTokens };

  const first = model.stream({ ...request, messages: conversation });
  for await (const text of first) yield { type: 'delta', text };
  const answer = await first.result;

  if (!limit) {
    return {
      output: { text: answer.text.trim(), shortened: false, truncated: false },
      usage: answer.usage,
      model: answer.model,
    };
  }

  const parsed = limit.parse(answer.text);
  const characters = countCharacters(parsed.limited);
  if (characters <= limit.maxCharacters) {
    return {
      output: { ...parsed.output(parsed.limited), shortened: false, truncated: false },
      usage: answer.usage,
      model: answer.model,
    };
  }

  // Over the limit: ask once to shorten. The page clears what it showed and follows the retry.
  yield { type: 'restart' };
  let usage = answer.usage;
  let candidate = parsed;
  try {
    const second = model.stream({
      ...request,
      messages: [
        ...conversation,
        { role: 'assistant', content: answer.text },
        { role: 'user', content: limit.shortenRequest(characters) },
      ],
    });
    for await (const text of second) yield { type: 'delta', text };
    const shorter = await second.result;
    usage = addUsage(usage, shorter.usage);
    if (shorter.text.trim()) candidate = limit.parse(shorter.text);
  } catch (err) {
    if (err instanceof LlmError && err.failure === 'cancelled') throw err;
    // The first answer is still good material: cut it rather than fail the whole generation.
    options.onShortenFailed?.(err);
  }

  const cut = cutToLimit(candidate.limited, limit.maxCharacters);
  return {
    output: { ...candidate.output(cut.text), shortened: true, truncated: cut.cutAt !== 'none' },
    usage,
    model: answer.model,
  };
}
