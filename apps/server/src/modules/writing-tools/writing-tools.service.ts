import {
  brandToolTargets,
  styleCheckSchema,
  type BrandTarget,
  type StyleCheck,
} from '@gem/contracts/brand-voice';
import { toStorableText } from '@gem/contracts/storable-text';
import { withoutBidiControls } from '@gem/contracts/text-rules';
import {
  generationOutputSchema,
  type WritingToolInput,
  type GenerationEvent,
  type GenerationOutput,
  type GenerationHistoryResponse,
  type WritingToolName,
} from '@gem/contracts/writing-tools';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Log } from '../../lib/logger';
import { generations } from '../../db/schema/index';
import { LlmError } from '../../integrations/llm/text-model';
import { isCancelled, toAppError, toStreamError } from '../../lib/ai/ai-errors';
import type { AiCall, AiPlatform } from '../../lib/ai/ai-platform';
import {
  runGeneration,
  type AnswerReader,
  type OutputLimit,
  type PipelineEvent,
  type PipelineResult,
  type Prompt,
} from './generation-pipeline';
import { promptVersion, revisionPrompt, toolCall, writingToolDefinitions } from './writing-tool-definitions';

/**
 * The four writing tools' use cases on top of the AI platform: a generation streamed as
 * events (the pipeline with its output limit), a whole answer for the spec §7 calls, and a
 * user's history of one tool.
 */

export const HISTORY_SIZE = 20;

export type WritingCall = AiCall & {
  prompt: Prompt;
  reader?: AnswerReader | undefined;
  limit?: OutputLimit | undefined;
  /** The tool's own; GEM_AI_MAX_OUTPUT_TOKENS overrides it. */
  maxOutputTokens: number;
  /** Aborted when the browser goes away. */
  signal: AbortSignal;
  /**
   * What the text is written for, for the brand profile's disclaimers and limits and the style
   * check: a campaign asset's channel; by default the tool itself when it is a target (the
   * summarize step and generate-prompt are none).
   */
  target?: BrandTarget | undefined;
};

/** The brand target a tool writes for by default: its own slug, when the profile knows it. */
const toolTarget = (tool: string): BrandTarget | undefined =>
  (brandToolTargets as readonly string[]).includes(tool) ? (tool as BrandTarget) : undefined;

/**
 * A model's text as GEM shows and stores it: a NUL character or half an emoji (which the
 * database cannot store) replaced by U+FFFD, and no bidirectional formatting characters (which
 * would make the text read differently from what it is). What the page is given is what the
 * record holds.
 */
const shownText = (text: string) => withoutBidiControls(toStorableText(text));

function storableOutput(output: GenerationOutput): GenerationOutput {
  return {
    ...output,
    text: shownText(output.text),
    ...(output.analysis === undefined ? {} : { analysis: shownText(output.analysis) }),
    ...(output.copy === undefined ? {} : { copy: shownText(output.copy) }),
  };
}

export type WritingToolsDeps = {
  db: Db;
  ai: AiPlatform;
  /** Per tool, the answer's size in tokens when it is not the tool's own (GEM_AI_MAX_OUTPUT_TOKENS). */
  maxOutputTokens?: Partial<Record<WritingToolName, number>>;
};

/** A streamed event as the page may show it (see shownText). */
const shownEvent = (event: PipelineEvent): PipelineEvent =>
  event.type === 'delta' ? { type: 'delta', text: withoutBidiControls(event.text) } : event;

export function createWritingTools({ db, ai, maxOutputTokens: overrides = {} }: WritingToolsDeps) {
  /**
   * What the call sends: its prompt with the brand profile in force (ai.brandFor) at the end of
   * the system prompt, its answer size, and a refusal (400) of a prompt that, profile included,
   * would not fit the model's context.
   */
  async function prepared(call: WritingCall) {
    const maxOutputTokens =
      (overrides as Record<string, number | undefined>)[call.tool] ?? call.maxOutputTokens;
    const target = call.target ?? toolTarget(call.tool);
    const { brand, block } = await ai.brandFor(target, maxOutputTokens, call.log);
    const prompt: Prompt = block
      ? { system: `${call.prompt.system}\n\n${block.text}`, user: call.prompt.user }
      : call.prompt;
    ai.assertFits({ system: prompt.system, messages: [{ content: prompt.user }] }, maxOutputTokens);
    /** The style check of what the call wrote (for paid ads, the copy), or null for nothing. */
    const check = (text: string): StyleCheck | null =>
      text.trim() === '' ? null : brand.check(text, target);
    return { maxOutputTokens, prompt, brand, check };
  }

  const service = {
    /**
     * Starts a streamed generation. Resolves once the first text is there (or the answer is
     * known to be empty), so a failure up to then is a plain error answer (429, 502, 503,
     * 504, or 500 when even the failure cannot be recorded); the events after it are for an
     * NDJSON body. Drain them: the call is recorded and the slot freed at their end, and a call
     * that cannot be recorded ends in an `error` event, never in its `final`.
     */
    async stream(call: WritingCall): Promise<AsyncIterable<GenerationEvent>> {
      const { maxOutputTokens, prompt, brand, check } = await prepared(call);
      const scope = await ai.begin({ ...call, brand });
      const run = runGeneration({
        model: scope.model,
        prompt,
        reader: call.reader,
        limit: call.limit,
        signal: call.signal,
        maxOutputTokens,
        onShortenFailed: (err) =>
          call.log.warn(
            { tool: call.tool, failure: err instanceof LlmError ? err.failure : 'error' },
            'shortening failed; cutting the first answer instead',
          ),
      });
      let first: IteratorResult<PipelineEvent, PipelineResult>;
      try {
        first = await run.next();
      } catch (err) {
        await scope.fail(err);
        throw toAppError(err);
      }
      if (!first.done && first.value.type === 'delta') scope.firstToken();

      return (async function* events(): AsyncGenerator<GenerationEvent> {
        let next = first;
        try {
          while (!next.done) {
            yield shownEvent(next.value);
            next = await run.next();
          }
        } catch (err) {
          // A failure that could not be recorded ends the stream as an internal error.
          const recordFailed = await scope.fail(err).then(
            () => undefined,
            (recordErr: unknown) => recordErr,
          );
          if (recordFailed) yield { type: 'error', error: toStreamError(recordFailed) };
          else if (!isCancelled(err)) yield { type: 'error', error: toStreamError(err) };
          return;
        } finally {
          // Left early (the reader stopped): stop the model call too. Nobody reads this answer
          // any more; a record that fails here is logged at error level by end().
          if (!next.done) {
            await run.return(undefined as never).catch(() => undefined);
            await scope.end({ outcome: 'cancelled', errorCode: 'client_closed' }).catch(() => undefined);
          }
        }
        const { usage, model } = next.value;
        const output = storableOutput(next.value.output);
        if (scope.model.provider === 'demo') output.demo = true;
        const empty = output.text.trim() === '';
        // The style check runs on what the page shows and the record keeps (paid ads: the copy).
        const style = check(output.copy ?? output.text);
        try {
          await scope.end({
            outcome: empty ? 'failed' : 'succeeded',
            errorCode: empty ? 'empty_output' : null,
            output,
            usage,
            model,
            style,
          });
        } catch (recordErr) {
          // Not recorded: the answer is not handed out; the stream ends in an error instead.
          yield { type: 'error', error: toStreamError(recordErr) };
          return;
        }
        yield { type: 'final', generationId: scope.id, output, ...(style ? { style } : {}) };
      })();
    },

    /**
     * A whole answer at once (the spec §7 calls). Empty when the model said nothing. Throws a
     * 500 AppError instead of the answer when the call could not be recorded.
     */
    async complete(call: WritingCall): Promise<string> {
      const { maxOutputTokens, prompt, brand, check } = await prepared(call);
      const scope = await ai.begin({ ...call, brand });
      try {
        const answer = await scope.model.generate({
          system: prompt.system,
          messages: [{ role: 'user', content: prompt.user }],
          signal: call.signal,
          maxOutputTokens,
        });
        const read = call.reader?.parse(answer.text);
        const text = shownText((read ? read.output(read.limited).text : answer.text).trim());
        await scope.end({
          outcome: text ? 'succeeded' : 'failed',
          errorCode: text ? null : 'empty_output',
          output: { text, shortened: false, truncated: false },
          usage: answer.usage,
          model: answer.model,
          style: check(text),
        });
        return text;
      } catch (err) {
        await scope.fail(err);
        throw toAppError(err);
      }
    },

    /**
     * A tool's generation for another feature (a campaign's asset): the tool's own call from its
     * input (checked by the caller), or, given the current text and an instruction, its
     * regeneration. `recorded` is added to the input as the record keeps it. Returns the events
     * of stream() and the version of the prompt sent.
     */
    async streamTool<N extends WritingToolName>(request: {
      userId: string;
      tool: N;
      input: WritingToolInput<N>;
      recorded?: Record<string, unknown>;
      revise?: { current: string; instruction: string } | undefined;
      /** What the text is for (a campaign asset's channel); the tool's own by default. */
      target?: BrandTarget | undefined;
      signal: AbortSignal;
      log: Pick<Log, 'error' | 'warn' | 'info'>;
    }): Promise<{ events: AsyncIterable<GenerationEvent>; promptVersion: string }> {
      const call = toolCall(writingToolDefinitions[request.tool], request.input);
      const prompt = request.revise
        ? revisionPrompt(call.prompt, request.revise.current, request.revise.instruction)
        : call.prompt;
      const events = await service.stream({
        ...call,
        prompt,
        input: { ...request.input, ...request.recorded },
        userId: request.userId,
        target: request.target,
        signal: request.signal,
        log: request.log,
      });
      // The tool's own rules: the brand profile sent with them is recorded as its version.
      return { events, promptVersion: promptVersion(request.tool, prompt.system) };
    },

    /** This user's last generations of this tool, newest first. Nobody else's, ever. */
    async history(userId: string, name: WritingToolName): Promise<GenerationHistoryResponse> {
      const rows = await db
        .select({
          id: generations.id,
          createdAt: generations.createdAt,
          input: generations.input,
          output: generations.output,
          outcome: generations.outcome,
          style: generations.style,
        })
        .from(generations)
        .where(and(eq(generations.userId, userId), eq(generations.generator, name)))
        .orderBy(desc(generations.createdAt), desc(generations.id))
        .limit(HISTORY_SIZE);
      return {
        items: rows.map((row) => {
          const output = generationOutputSchema.safeParse(row.output);
          // A check stored by an older GEM may not read any more: the entry is listed without it.
          const style = row.style === null ? null : styleCheckSchema.safeParse(row.style);
          return {
            id: row.id,
            generator: name,
            createdAt: row.createdAt.toISOString(),
            input: (row.input ?? {}) as Record<string, unknown>,
            output: output.success ? output.data : null,
            outcome: row.outcome,
            ...(style?.success ? { style: style.data } : {}),
          };
        }),
      };
    },
  };
  return service;
}

export type WritingTools = ReturnType<typeof createWritingTools>;
