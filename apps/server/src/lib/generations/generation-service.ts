import { randomUUID } from 'node:crypto';
import type {
  AiStatusResponse,
  GenerationEvent,
  GenerationHistoryResponse,
  GenerationOutput,
  GeneratorName,
} from '@gem/contracts/generators';
import type { AiConfig } from '../../config';
import type { Db } from '../../db/client';
import { LlmError, type TextModel, type TokenUsage } from '../../integrations/llm/text-model';
import type { VerifiedIdentity } from '../../integrations/oidc/token-verifier';
import { AppError } from '../app-error';
import { createAiCallLimiter } from './ai-call-limiter';
import {
  runGeneration,
  type OutputLimit,
  type PipelineEvent,
  type PipelineResult,
  type Prompt,
} from './generation-pipeline';
import { createGenerationStore, type GenerationRecordInput } from './generation-store';

/**
 * What every AI tool shares: the not-configured answer, the per-user limits, the model call
 * (streamed or whole), the limit checks, the record of each generation, and turning failures
 * into the error shape (before the stream starts) or an `error` event (after).
 */

type Logger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type GenerationCall = {
  identity: VerifiedIdentity;
  /** The tool, as recorded (a generator name, or a spec §7 call such as 'generate-prompt'). */
  generator: string;
  input: Record<string, unknown>;
  prompt: Prompt;
  limit?: OutputLimit | undefined;
  maxOutputTokens?: number | undefined;
  /** Aborted when the browser goes away. */
  signal: AbortSignal;
  log: Logger;
};

export type GenerationServiceDeps = {
  db: Db;
  /** null when no AI service is configured. */
  model: TextModel | null;
  ai: Pick<AiConfig, 'timeoutMs' | 'limits'>;
  log: Logger;
};

const NOT_CONFIGURED =
  'The AI service is not configured. An administrator sets GEM_AI_PROVIDER, GEM_AI_MODEL and GEM_AI_API_KEY (see README, "AI service").';

/** The safe words for each failure: what the page may show, nothing from upstream. */
const failureAnswers = {
  timeout: { status: 504, message: 'The AI service did not answer in time. Please try again.' },
  rate_limited: { status: 503, message: 'The AI service is busy right now. Please try again in a moment.' },
  unavailable: { status: 502, message: 'The AI service is not available right now. Please try again.' },
  cancelled: { status: 499, message: 'The request was cancelled.' },
} as const;

type Ending = {
  outcome: GenerationRecordInput['outcome'];
  errorCode: string | null;
  output?: GenerationOutput | null;
  usage?: TokenUsage | null;
  model?: string | null;
};

function endingOf(err: unknown): Ending {
  if (!(err instanceof LlmError)) return { outcome: 'failed', errorCode: 'internal_error' };
  if (err.failure === 'cancelled') return { outcome: 'cancelled', errorCode: 'client_closed' };
  return { outcome: 'failed', errorCode: err.failure === 'unavailable' ? 'ai_unavailable' : err.failure };
}

function toAppError(err: unknown): unknown {
  if (!(err instanceof LlmError)) return err;
  const answer = failureAnswers[err.failure];
  // The service's own wait when it named one; otherwise a short pause before trying again.
  const upstreamWait = err.details.retryAfterSeconds;
  const retryAfter =
    err.failure === 'rate_limited' ? (upstreamWait && upstreamWait > 0 ? upstreamWait : 10) : undefined;
  return new AppError(
    answer.status,
    err.failure === 'cancelled' ? 'bad_request' : 'ai_unavailable',
    answer.message,
    retryAfter,
    {
      cause: err,
    },
  );
}

function errorEvent(err: unknown): GenerationEvent {
  if (err instanceof LlmError) {
    return { type: 'error', error: { code: 'ai_unavailable', message: failureAnswers[err.failure].message } };
  }
  return {
    type: 'error',
    error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' },
  };
}

export function createGenerationService({ db, model, ai, log }: GenerationServiceDeps) {
  const store = createGenerationStore(db);
  const limiter = createAiCallLimiter({
    db,
    limits: ai.limits,
    // A generation makes at most two model calls (the answer, one request to shorten it).
    leaseMs: 2 * ai.timeoutMs + 30_000,
    onReleaseFailed: (err) => log.warn({ err }, 'could not release an AI call lease; it expires by itself'),
  });

  function requireModel(): TextModel {
    if (!model) throw new AppError(503, 'ai_not_configured', NOT_CONFIGURED);
    return model;
  }

  /** Takes the user's slot and returns how to end the generation: record it, free the slot. */
  async function begin(call: GenerationCall) {
    const llm = requireModel();
    const userId = await store.userIdOf(call.identity);
    const lease = await limiter.acquire(userId);
    const id = randomUUID();
    const startedAt = new Date();
    const started = performance.now();
    let ended = false;

    async function end(ending: Ending) {
      if (ended) return;
      ended = true;
      try {
        await store.record({
          id,
          userId,
          generator: call.generator,
          input: call.input,
          output: ending.output ?? null,
          model: ending.model ?? llm.model,
          usage: ending.usage ?? null,
          startedAt,
          latencyMs: performance.now() - started,
          outcome: ending.outcome,
          errorCode: ending.errorCode,
        });
      } catch (err) {
        call.log.error({ err }, 'could not record a generation');
      } finally {
        await lease.release();
      }
    }

    function failed(err: unknown) {
      if (err instanceof LlmError) {
        const level = err.failure === 'cancelled' ? 'info' : 'warn';
        call.log[level](
          {
            generator: call.generator,
            failure: err.failure,
            status: err.details.status,
            attempts: err.details.attempts,
          },
          'AI generation did not complete',
        );
      } else {
        call.log.error({ err, generator: call.generator }, 'AI generation failed');
      }
      return end(endingOf(err));
    }

    return { llm, id, end, failed };
  }

  return {
    status(): AiStatusResponse {
      return { configured: model !== null, provider: model?.provider ?? null, model: model?.model ?? null };
    },

    /** Throws 503 ai_not_configured; the AI routes call it before anything else. */
    assertConfigured(): void {
      requireModel();
    },

    /**
     * Starts a streamed generation. Resolves once the first text is there (or the answer is
     * known to be empty), so a failure up to then is a plain error answer (429, 502, 503,
     * 504); the events after it are for an NDJSON body. Drain them: the record is written
     * and the slot freed at their end.
     */
    async stream(call: GenerationCall): Promise<AsyncIterable<GenerationEvent>> {
      const { llm, id, end, failed } = await begin(call);
      const run = runGeneration({
        model: llm,
        prompt: call.prompt,
        limit: call.limit,
        signal: call.signal,
        maxOutputTokens: call.maxOutputTokens,
        onShortenFailed: (err) =>
          call.log.warn(
            { generator: call.generator, failure: err instanceof LlmError ? err.failure : 'error' },
            'shortening failed; cutting the first answer instead',
          ),
      });
      let first: IteratorResult<PipelineEvent, PipelineResult>;
      try {
        first = await run.next();
      } catch (err) {
        await failed(err);
        throw toAppError(err);
      }

      return (async function* events(): AsyncGenerator<GenerationEvent> {
        let next = first;
        try {
          while (!next.done) {
            yield next.value;
            next = await run.next();
          }
        } catch (err) {
          await failed(err);
          if (!(err instanceof LlmError && err.failure === 'cancelled')) yield errorEvent(err);
          return;
        } finally {
          // Left early (the reader stopped): stop the model call too.
          if (!next.done) {
            await run.return(undefined as never).catch(() => undefined);
            await end({ outcome: 'cancelled', errorCode: 'client_closed' });
          }
        }
        const { output, usage, model: answeredBy } = next.value;
        const empty = output.text.trim() === '';
        await end({
          outcome: empty ? 'failed' : 'succeeded',
          errorCode: empty ? 'empty_output' : null,
          output,
          usage,
          model: answeredBy,
        });
        yield { type: 'final', generationId: id, output };
      })();
    },

    /** A whole answer at once (the spec §7 calls). Empty when the model said nothing. */
    async complete(call: GenerationCall): Promise<string> {
      const { llm, end, failed } = await begin(call);
      try {
        const answer = await llm.generate({
          system: call.prompt.system,
          messages: [{ role: 'user', content: call.prompt.user }],
          signal: call.signal,
          maxOutputTokens: call.maxOutputTokens,
        });
        const text = answer.text.trim();
        await end({
          outcome: text ? 'succeeded' : 'failed',
          errorCode: text ? null : 'empty_output',
          output: { text, shortened: false, truncated: false },
          usage: answer.usage,
          model: answer.model,
        });
        return text;
      } catch (err) {
        await failed(err);
        throw toAppError(err);
      }
    },

    async history(identity: VerifiedIdentity, generator: GeneratorName): Promise<GenerationHistoryResponse> {
      return store.history(await store.userIdOf(identity), generator);
    },
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
