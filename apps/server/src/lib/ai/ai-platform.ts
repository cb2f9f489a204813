import { randomUUID } from 'node:crypto';
import type { AiStatusResponse } from '@gem/contracts/ai-status';
import { formatCount } from '@gem/contracts/format-number';
import type { AiConfig } from '../../config';
import type { Db } from '../../db/client';
import { LlmError, type TextModel, type TokenUsage } from '../../integrations/llm/text-model';
import { AppError } from '../app-error';
import type { Log } from '../logger';
import type { Metrics } from '../metrics';
import type { BrandTarget, StyleCheck } from '@gem/contracts/brand-voice';
import type { BrandPrompt } from '../brand-voice/brand-prompt';
import {
  brandBudget,
  brandWithoutProfile,
  type BrandInForce,
  type BrandVoice,
} from '../brand-voice/brand-voice';
import { assertAllowanceLeft, readAllowance, type Allowance } from './ai-allowance';
import { createAiCallLimiter } from './ai-call-limiter';
import { recordAiCall, type AiCallOutcome } from './ai-call-log';
import { endingOf, INTERNAL_AI_ERROR } from './ai-errors';
import { CHARACTERS_PER_TOKEN, estimatePromptTokens, promptBudget } from './context-budget';

/**
 * What every AI feature does around its model calls: refuse when no AI service is configured or
 * the user's monthly allowance is used up (ai-allowance.ts), hold the user's rate and concurrency limits, record the call (user, tool, input, output,
 * model, tokens, latency, outcome) and log how it ended. The writing tools, the brief creator
 * and the audience builder all go through `begin`; none of them talks to the limits or the
 * record directly.
 */

export type AiCall = {
  /** The signed-in user (the auth plugin's `req.user.id`). */
  userId: string;
  /** What is recorded as the tool, e.g. 'article' or 'generate-prompt'. */
  tool: string;
  input: Record<string, unknown>;
  /** The request's logger. */
  log: Pick<Log, 'error' | 'warn' | 'info'>;
  /** The brand profile the prompt carries (brandFor): its version is recorded with the call. */
  brand?: BrandInForce | undefined;
};

export type AiCallEnding = {
  outcome: AiCallOutcome;
  errorCode?: string | null;
  output?: unknown;
  usage?: TokenUsage | null;
  /** The model that answered, when it said. */
  model?: string | null;
  /** The style check of what the call wrote (BrandInForce.check), recorded with it. */
  style?: StyleCheck | null;
};

/** One AI call in progress: the model to use and how to end the call. Always end it once. */
export type AiCallScope = {
  /** The call's id, as recorded. */
  id: string;
  model: TextModel;
  /**
   * Records how the call ended and frees the user's slot. A second call does nothing. When the
   * record cannot be written it logs that at error level and throws a 500 AppError: the caller
   * answers with that instead of the model's answer, since an AI call is never left unrecorded.
   */
  end(ending: AiCallEnding): Promise<void>;
  /** Logs the failure (a cancel quietly), records it and frees the slot; throws as end() does. */
  fail(err: unknown): Promise<void>;
  /**
   * The first text of a streamed answer is on its way to the user: the call's first-token
   * latency (gem_ai_first_token_seconds). Every streaming feature calls it as it passes on its
   * first delta; only the first call counts.
   */
  firstToken(): void;
};

export type AiPlatformDeps = {
  db: Db;
  /** null when no AI service is configured. */
  model: TextModel | null;
  ai: Pick<AiConfig, 'timeoutMs' | 'limits' | 'contextTokens'>;
  log: Pick<Log, 'error' | 'warn' | 'info'>;
  /** Where calls are counted (gem_ai_*); lib/metrics.ts. */
  metrics?: Pick<Metrics, 'aiCall' | 'aiFirstToken' | 'aiRefused'> | undefined;
  /**
   * Model calls one AI call may make (each up to the timeout), so a slot whose instance died
   * is freed after them. The writing tools make three at most: the answer, one request for an
   * answer they can use, and one to shorten it.
   */
  modelCallsPerCall?: number;
  /** The clock the monthly allowance's month is read by (ms since the epoch); tests move it on. */
  now?: () => number;
  /** The brand profile every generator sends and checks against (lib/brand-voice). */
  brandVoice?: Pick<BrandVoice, 'inForce'> | undefined;
};

export const AI_NOT_CONFIGURED =
  'The AI service is not connected yet, so this tool cannot write anything. Ask your administrator to connect it.';

export function createAiPlatform({
  db,
  model,
  ai,
  log,
  metrics,
  modelCallsPerCall = 3,
  now = Date.now,
  brandVoice,
}: AiPlatformDeps) {
  const limiter = createAiCallLimiter({
    db,
    limits: ai.limits,
    leaseMs: modelCallsPerCall * ai.timeoutMs + 30_000,
    onReleaseFailed: (err) => log.warn({ err }, 'could not release an AI call lease; it expires by itself'),
  });

  function requireModel(): TextModel {
    if (!model) throw new AppError(503, 'ai_not_configured', AI_NOT_CONFIGURED);
    return model;
  }

  return {
    status(): AiStatusResponse {
      return {
        configured: model !== null,
        provider: model?.provider ?? null,
        model: model?.model ?? null,
        demo: model?.provider === 'demo',
      };
    },

    /** The model's context window in tokens (GEM_AI_CONTEXT_TOKENS). */
    contextTokens: ai.contextTokens,

    /**
     * Refuses (400, before any slot is taken) a prompt that would not fit the model's context
     * with room for its answer, with words that say how much to cut, instead of a call that
     * would fail at the provider.
     */
    assertFits(
      prompt: { system: string; messages: readonly { content: string }[] },
      maxOutputTokens: number,
    ) {
      const tokens = estimatePromptTokens(prompt.system, prompt.messages);
      const budget = promptBudget(ai.contextTokens, maxOutputTokens);
      if (tokens <= budget) return;
      const over = Math.ceil(((tokens - budget) * CHARACTERS_PER_TOKEN) / 100) * 100;
      throw new AppError(
        400,
        'bad_request',
        `The text is too long for the AI model: shorten it by about ${formatCount(over)} characters and try again.`,
      );
    },

    /**
     * The brand profile in force and its block for a prompt written for `target` that leaves
     * room for `maxOutputTokens` (a share of the prompt's budget, lib/brand-voice/brand-prompt.ts).
     * Every generator puts `block.text` in its system prompt, passes `brand` to begin() (the
     * version is recorded) and checks what it wrote with `brand.check`. A block cut for the
     * budget is logged with what was left out.
     */
    async brandFor(
      target: BrandTarget | undefined,
      maxOutputTokens: number,
      log?: Pick<Log, 'info'>,
    ): Promise<{ brand: BrandInForce; block: BrandPrompt | null }> {
      const brand = brandVoice ? await brandVoice.inForce() : brandWithoutProfile();
      const block = brand.prompt(target, brandBudget(promptBudget(ai.contextTokens, maxOutputTokens)));
      if (block && Object.keys(block.omitted).length > 0) {
        log?.info(
          { brandVersion: block.version, omitted: block.omitted },
          'brand profile cut to fit the prompt',
        );
      }
      return { brand, block };
    },

    /** Throws 503 ai_not_configured; AI routes call it before anything else. */
    assertConfigured(): void {
      requireModel();
    },

    /**
     * The user's monthly token allowance (their own, else the default; null: no limit) and what
     * they have used of it this month (UTC), as every instance counts it.
     */
    allowanceOf(userId: string): Promise<Allowance> {
      return readAllowance(db, userId, now());
    },

    /**
     * Refuses a user whose monthly allowance is used up (429 allowance_exhausted, no Retry-After),
     * then takes the user's slot (or throws a 429 AppError with Retry-After) and starts the record.
     * The allowance is checked here, at the start, and counted when the call is recorded: calls
     * already in flight can overspend it, by their own tokens at most.
     */
    async begin(call: AiCall): Promise<AiCallScope> {
      const llm = requireModel();
      assertAllowanceLeft(await readAllowance(db, call.userId, now()));
      const lease = await limiter.acquire(call.userId).catch((err: unknown) => {
        if (err instanceof AppError && err.statusCode === 429) metrics?.aiRefused(call.tool);
        throw err;
      });
      const id = randomUUID();
      const startedAt = new Date();
      const started = performance.now();
      let ended = false;
      let firstTokenSeen = false;

      async function end(ending: AiCallEnding) {
        if (ended) return;
        ended = true;
        const latencyMs = performance.now() - started;
        metrics?.aiCall({
          tool: call.tool,
          outcome: ending.outcome,
          errorCode: ending.errorCode ?? null,
          latencySeconds: latencyMs / 1000,
          promptTokens: ending.usage?.promptTokens ?? null,
          completionTokens: ending.usage?.completionTokens ?? null,
        });
        try {
          await recordAiCall(db, {
            id,
            userId: call.userId,
            tool: call.tool,
            input: call.input,
            output: ending.output ?? null,
            model: ending.model ?? llm.model,
            usage: ending.usage ?? null,
            startedAt,
            latencyMs,
            outcome: ending.outcome,
            errorCode: ending.errorCode ?? null,
            brandVersion: call.brand?.version ?? null,
            style: ending.style ?? null,
          });
        } catch (err) {
          // The record is the audit trail: a call that cannot be recorded fails, visibly.
          call.log.error({ err, tool: call.tool, outcome: ending.outcome }, 'could not record an AI call');
          throw new AppError(500, 'internal_error', INTERNAL_AI_ERROR, undefined, { cause: err });
        } finally {
          await lease.release();
        }
      }

      function fail(err: unknown) {
        if (err instanceof LlmError) {
          call.log[err.failure === 'cancelled' ? 'info' : 'warn'](
            {
              tool: call.tool,
              failure: err.failure,
              status: err.details.status,
              attempts: err.details.attempts,
            },
            'AI call did not complete',
          );
        } else {
          call.log.error({ err, tool: call.tool }, 'AI call failed');
        }
        return end(endingOf(err));
      }

      function firstToken() {
        if (firstTokenSeen || ended) return;
        firstTokenSeen = true;
        metrics?.aiFirstToken(call.tool, (performance.now() - started) / 1000);
      }

      return { id, model: llm, end, fail, firstToken };
    },
  };
}

export type AiPlatform = ReturnType<typeof createAiPlatform>;
