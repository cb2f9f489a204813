import { countCharacters, countWords } from '@gem/contracts/text-rules';
import type { GenerationOutput, WritingToolInput, WritingToolName } from '@gem/contracts/writing-tools';
import {
  addUsage,
  LlmError,
  type ChatTurn,
  type TextModel,
  type TextModelResult,
  type TokenUsage,
} from '../../integrations/llm/text-model';
import { cleanAnswer, type CleanupOptions } from './answer-cleanup';
import { cutToLimit, cutToWords } from './text-limit';

/**
 * One generation, from prompt to final output: streams the model's answer, takes off what models
 * wrap around it (answer-cleanup.ts), splits it into the tool's parts, and enforces the tool's
 * limit. An answer the tool cannot use (paid ads without their copy) is asked for once more;
 * over the limit, the model is asked once to shorten (the page is told to clear what it showed,
 * and the new attempt streams); still over, the answer is cut (text-limit.ts says where). Knows
 * nothing of HTTP or the database.
 */

export type Prompt = { system: string; user: string };

/** What the page shows of an answer: its text, and the tool's parts of it. */
export type ShownOutput = Pick<GenerationOutput, 'text' | 'analysis' | 'copy' | 'notes'>;

export type ParsedAnswer = {
  /** The part of the answer the limit counts (the whole text; the paid-ads copy). */
  limited: string;
  /** The output around a replacement for that part. */
  output(limited: string): ShownOutput;
  /** Why the tool cannot use this answer (e.g. no ad copy in it): it is asked for once more. */
  problem?: string;
};

/** How a tool reads its model's answer. */
export type AnswerReader = {
  parse(answer: string): ParsedAnswer;
  /** The follow-up turn (Polish) asking once more for an answer the tool can use. */
  repairRequest?(problem: string): string;
};

/** A limit that is enforced, not only asked for (spec §5, §9). */
export type OutputLimit = {
  max: number;
  /** Characters are grapheme clusters (countCharacters); words as countWords counts them. */
  unit: 'characters' | 'words';
  /** The follow-up turn (Polish) asking once for a shorter answer; `count` is its length now. */
  shortenRequest(count: number): string;
};

/** A tool whose answer is its text, cleaned as `options` say. */
export function textAnswer(options: CleanupOptions = {}): AnswerReader {
  return {
    parse(answer) {
      const { text, variants } = cleanAnswer(answer, options);
      const notes = variants ? [variantsNote(variants)] : [];
      return { limited: text, output: (limited) => ({ text: limited, ...(notes.length ? { notes } : {}) }) };
    },
  };
}

/**
 * A length and its limit in Polish that is grammatical for every number ("liczba znaków – 622,
 * limit – 600"), unlike "ma 622 znaków".
 */
export const countPhrase = (count: number, limit: number, unit: OutputLimit['unit']) =>
  `${unit === 'words' ? 'liczba słów' : 'liczba znaków'} – ${count}, limit – ${limit}`;

export const variantsNote = (variants: number) => `The AI wrote ${variants} variants; the first is shown.`;

/** The turn after an answer cut off at the output limit. */
export const CUT_OFF_REQUEST =
  'Odpowiedź została ucięta, bo była za długa. Napisz ją jeszcze raz, w całości i krócej, zgodnie z zasadami, bez wstępu i uwag.';

export type PipelineEvent = { type: 'delta'; text: string } | { type: 'restart' };

export type PipelineResult = {
  output: GenerationOutput;
  usage: TokenUsage;
  model: string;
};

export type PipelineOptions = {
  model: TextModel;
  prompt: Prompt;
  reader?: AnswerReader | undefined;
  limit?: OutputLimit | undefined;
  signal: AbortSignal;
  maxOutputTokens?: number | undefined;
  /** The shortening call failed; the first answer is cut instead. */
  onShortenFailed?: (err: unknown) => void;
};

const measure = (text: string, unit: OutputLimit['unit']) =>
  unit === 'words' ? countWords(text) : countCharacters(text);

export async function* runGeneration(
  options: PipelineOptions,
): AsyncGenerator<PipelineEvent, PipelineResult> {
  const { model, prompt, limit, signal, maxOutputTokens } = options;
  const reader = options.reader ?? textAnswer();
  const conversation: ChatTurn[] = [{ role: 'user', content: prompt.user }];
  const request = { system: prompt.system, signal, maxOutputTokens };

  /**
   * One streamed answer to `messages`, its text passed on to the page as it comes. An answer cut
   * off at maxOutputTokens is never taken as whole: it is asked for once more, shorter (the page
   * clears what it showed), and a second cut one fails the generation as incomplete.
   */
  async function* ask(messages: ChatTurn[]): AsyncGenerator<PipelineEvent, TextModelResult> {
    const call = model.stream({ ...request, messages });
    for await (const text of call) yield { type: 'delta', text };
    const answer = await call.result;
    if (answer.finishReason !== 'length') return answer;
    yield { type: 'restart' };
    const again = model.stream({
      ...request,
      messages: [
        ...messages,
        { role: 'assistant', content: answer.text },
        { role: 'user', content: CUT_OFF_REQUEST },
      ],
    });
    for await (const text of again) yield { type: 'delta', text };
    const whole = await again.result;
    if (whole.finishReason === 'length') {
      throw new LlmError(
        'incomplete',
        `the answer was cut at ${maxOutputTokens ?? 'the'} output tokens twice`,
      );
    }
    return { ...whole, usage: addUsage(answer.usage, whole.usage) };
  }

  const first = yield* ask(conversation);
  let usage = first.usage;
  let answerText = first.text;
  let parsed = reader.parse(answerText);

  // An answer the tool cannot use: asked for once more, with what was wrong.
  if (parsed.problem !== undefined && reader.repairRequest) {
    yield { type: 'restart' };
    const repairTurns: ChatTurn[] = [
      ...conversation,
      { role: 'assistant', content: answerText },
      { role: 'user', content: reader.repairRequest(parsed.problem) },
    ];
    const repaired = yield* ask(repairTurns);
    usage = addUsage(usage, repaired.usage);
    answerText = repaired.text;
    parsed = reader.parse(answerText);
    if (parsed.problem !== undefined) {
      throw new LlmError('invalid_output', `the AI service's answer is not usable: ${parsed.problem}`);
    }
  }

  const count = limit ? measure(parsed.limited, limit.unit) : 0;
  if (!limit || count <= limit.max) {
    return {
      output: { ...parsed.output(parsed.limited), shortened: false, truncated: false },
      usage,
      model: first.model,
    };
  }

  // Over the limit: ask once to shorten. The page clears what it showed and follows the retry.
  yield { type: 'restart' };
  let candidate = parsed;
  try {
    const shorter = yield* ask([
      ...conversation,
      // The answer as GEM read it, so the model shortens its text, not its preamble or notes.
      { role: 'assistant', content: parsed.output(parsed.limited).text },
      { role: 'user', content: limit.shortenRequest(count) },
    ]);
    usage = addUsage(usage, shorter.usage);
    if (shorter.text.trim()) {
      const reparsed = reader.parse(shorter.text);
      if (reparsed.problem === undefined && reparsed.limited.trim()) candidate = reparsed;
    }
  } catch (err) {
    if (err instanceof LlmError && err.failure === 'cancelled') throw err;
    // The first answer is still good material: cut it rather than fail the whole generation.
    options.onShortenFailed?.(err);
  }

  const cut =
    limit.unit === 'words'
      ? cutToWords(candidate.limited, limit.max)
      : cutToLimit(candidate.limited, limit.max);
  return {
    output: { ...candidate.output(cut.text), shortened: true, truncated: cut.cutAt !== 'none' },
    usage,
    model: first.model,
  };
}

/**
 * What a writing tool defines (`<tool>/<tool>.tool.ts`): its prompt (Polish), how its answer is read (cleaned and split), the
 * limit it enforces, if any (or one that depends on the input), and the answer's size in tokens.
 */
export type WritingToolDefinition<N extends WritingToolName> = {
  name: N;
  prompt(input: WritingToolInput<N>): Prompt;
  reader: AnswerReader;
  limit?: OutputLimit | ((input: WritingToolInput<N>) => OutputLimit);
  /**
   * The most tokens the answer may take: sized to the output the prompt asks for, with room to
   * spare (GEM_AI_MAX_OUTPUT_TOKENS overrides it). An answer cut off by it is never shown whole.
   */
  maxOutputTokens: number;
};
