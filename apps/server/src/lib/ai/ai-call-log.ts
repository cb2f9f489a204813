import { toStorableText } from '@gem/contracts/storable-text';
import type { Db } from '../../db/client';
import { generations } from '../../db/schema/index';
import type { TokenUsage } from '../../integrations/llm/text-model';

/**
 * The record of every AI call (the `generations` table): who asked which tool for what, what
 * came back, from which model, at what cost, how long it took and how it ended.
 */

export type AiCallOutcome = 'succeeded' | 'failed' | 'cancelled';

export type AiCallRecord = {
  id: string;
  userId: string;
  /** The tool, e.g. a writing tool's name or a spec §7 call such as 'generate-prompt'. */
  tool: string;
  input: Record<string, unknown>;
  /** What the tool returned (its own shape); null when nothing usable came back. */
  output: unknown;
  model: string | null;
  usage: TokenUsage | null;
  startedAt: Date;
  latencyMs: number;
  outcome: AiCallOutcome;
  errorCode: string | null;
  /** The brand profile version the prompt carried; null: none. */
  brandVersion?: number | null;
  /** The style check of the output ({ score, counts, findings, version }); null: not checked. */
  style?: unknown;
};

/**
 * A JSON value PostgreSQL's jsonb can store: every string (keys too) with a NUL or a lone half of
 * a surrogate pair gets U+FFFD there, as the text answers do. A model's object, or CRM data in a
 * call's input, can carry either, and the record must not fail for it.
 */
export function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return toStorableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [toStorableText(k), storableJson(v)]));
  }
  return value;
}

export async function recordAiCall(db: Db, row: AiCallRecord): Promise<void> {
  await db.insert(generations).values({
    id: row.id,
    userId: row.userId,
    generator: row.tool,
    input: storableJson(row.input) as Record<string, unknown>,
    output: storableJson(row.output ?? null),
    model: row.model,
    promptTokens: row.usage?.promptTokens ?? null,
    completionTokens: row.usage?.completionTokens ?? null,
    latencyMs: Math.round(row.latencyMs),
    outcome: row.outcome,
    errorCode: row.errorCode,
    brandVersion: row.brandVersion ?? null,
    style: row.style == null ? null : storableJson(row.style),
    createdAt: row.startedAt,
  });
}
