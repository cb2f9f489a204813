import { z } from 'zod';

import { adminPersonSchema, isoDaySchema } from './admin';
import { styleRuleIds } from './brand-voice';

export { adminPaths } from './admin-paths';

/**
 * Administration's usage (issue 30): generations, tokens, estimated cost, failures and latency
 * per person, tool and day or week over a chosen range, read from the usage rollups the database
 * keeps as each generation is recorded (migrations 0020 and 0021: per day and tool without the
 * person, per person and week, per person and day), and the models' prices the cost is estimated
 * with. Every figure can be traced to its generation records
 * (`adminPaths.usageGenerations`).
 */

/** The longest range the usage page reads, in days (a year and a day, so a leap year fits). */
export const USAGE_MAX_RANGE_DAYS = 366;
/** The most table rows the page's answer holds; the CSV file has them all. */
export const USAGE_TABLE_MAX_ROWS = 500;
/** The people the top users chart shows. */
export const USAGE_TOP_USERS = 10;
/** Records a page of the drill-down lists. */
export const USAGE_GENERATIONS_PAGE = 50;

export const USAGE_RANGE_ORDER_ERROR = 'The range ends before it starts.';
export const USAGE_RANGE_LENGTH_ERROR = `The range can be at most ${USAGE_MAX_RANGE_DAYS} days.`;
export const PRICE_NUMBER_ERROR = 'The price must be a number.';

export const usagePeriods = ['day', 'week'] as const;
export type UsagePeriod = (typeof usagePeriods)[number];

const DAY_MS = 86_400_000;
/** Days from `from` to `to`, both counted (YYYY-MM-DD, UTC). */
export const daysInRange = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The day `days` after (or before) `day`, YYYY-MM-DD (UTC). */
export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The Monday of the ISO week a day is in (UTC): the key of a week on the usage page. */
export const weekStartOf = (day: string): string => {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
};

/** A range's order and length, checked where the two days meet. */
function checkRange(value: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (value.from === undefined || value.to === undefined) return;
  const days = daysInRange(value.from, value.to);
  if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: USAGE_RANGE_ORDER_ERROR });
  else if (days > USAGE_MAX_RANGE_DAYS)
    ctx.addIssue({ code: 'custom', path: ['from'], message: USAGE_RANGE_LENGTH_ERROR });
}

const toolSchema = z
  .string()
  .trim()
  .min(1, 'Name a tool.')
  .max(100, 'A tool’s name is at most 100 characters.')
  .optional();

/**
 * The usage page's question: a range of UTC days (both counted; the last 30 days when left
 * out), by day or by ISO week, optionally one person and one tool.
 */
export const usageQuerySchema = z
  .object({
    from: isoDaySchema.optional(),
    to: isoDaySchema.optional(),
    by: z.enum(usagePeriods, { error: 'Choose day or week.' }).default('day'),
    userId: z.uuid({ error: 'Choose a person from the list.' }).optional(),
    tool: toolSchema,
  })
  .superRefine(checkRange);
export type UsageQuery = z.input<typeof usageQuerySchema>;

/** Tokens and their estimated cost: the cost counts priced models only (null when none is). */
const figuresShape = {
  generations: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** Estimated with today's prices; null when none of the tokens' models has a price. */
  cost: z.number().nullable(),
  /** Tokens of models without a price, left out of the cost. */
  unpricedTokens: z.number().int(),
};

/** p50 and p95 in ms, each the upper bound of its latency bucket (≈, within 10 %); null without calls. */
const latencyShape = { p50Ms: z.number().nullable(), p95Ms: z.number().nullable() };

export const usageModelSchema = z.object({
  /** '' when the call never reached a model. */
  model: z.string(),
  priced: z.boolean(),
  ...figuresShape,
});
export type UsageModel = z.infer<typeof usageModelSchema>;

export const usageRowSchema = z.object({
  /** The period's first and last day within the range (a week is cut at the range's ends). */
  periodStart: z.string(),
  periodEnd: z.string(),
  user: adminPersonSchema,
  tool: z.string(),
  ...figuresShape,
  ...latencyShape,
});
export type UsageRow = z.infer<typeof usageRowSchema>;

export const usageResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  by: z.enum(usagePeriods),
  totals: z.object({ ...figuresShape, ...latencyShape }),
  /** Generations and tokens per period and tool: the time series, stacked by tool. */
  series: z.array(
    z.object({
      period: z.string(),
      tool: z.string(),
      generations: z.number().int(),
      tokens: z.number().int(),
    }),
  ),
  /** The people who used the most tokens. */
  topUsers: z.array(z.object({ user: adminPersonSchema, ...figuresShape })),
  /** Calls that did not succeed, by how they ended and why. */
  failures: z.array(
    z.object({
      outcome: z.enum(['failed', 'cancelled']),
      errorCode: z.string(),
      generations: z.number().int(),
    }),
  ),
  /** Per model, with whether it has a price. */
  models: z.array(usageModelSchema),
  /** One per period, person and tool, newest first then most tokens; at most USAGE_TABLE_MAX_ROWS. */
  rows: z.array(usageRowSchema),
  rowCount: z.number().int(),
  /** Who and which tools used GEM in the range (for the filters, whatever is chosen). */
  people: z.array(adminPersonSchema),
  tools: z.array(z.string()),
});
export type UsageResponse = z.infer<typeof usageResponseSchema>;

/**
 * The records a figure is made of: the same range and filters, and optionally the model and
 * how the calls ended; newest first, a page at a time (`before` is the last page's `next`).
 */
export const usageGenerationsQuerySchema = z
  .object({
    from: isoDaySchema,
    to: isoDaySchema,
    userId: z.uuid({ error: 'Choose a person from the list.' }).optional(),
    tool: toolSchema,
    model: z.string().max(200).optional(),
    outcome: z.enum(['succeeded', 'failed', 'cancelled']).optional(),
    errorCode: z.string().max(100).optional(),
    before: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z~[0-9a-f-]{36}$/i, 'The cursor is not valid.')
      .optional(),
  })
  .superRefine(checkRange);
export type UsageGenerationsQuery = z.input<typeof usageGenerationsQuerySchema>;

export const usageGenerationSchema = z.object({
  id: z.uuid(),
  createdAt: z.string(),
  user: adminPersonSchema,
  tool: z.string(),
  model: z.string().nullable(),
  promptTokens: z.number().int().nullable(),
  completionTokens: z.number().int().nullable(),
  latencyMs: z.number().int(),
  outcome: z.enum(['succeeded', 'failed', 'cancelled']),
  errorCode: z.string().nullable(),
});
export type UsageGeneration = z.infer<typeof usageGenerationSchema>;

export const usageGenerationsResponseSchema = z.object({
  items: z.array(usageGenerationSchema),
  /** The cursor of the next page; null on the last. */
  next: z.string().nullable(),
});
export type UsageGenerationsResponse = z.infer<typeof usageGenerationsResponseSchema>;

const priceSchema = z
  .number({ error: PRICE_NUMBER_ERROR })
  .refine(Number.isFinite, PRICE_NUMBER_ERROR)
  .min(0, 'A price cannot be below 0.')
  .max(1_000_000, 'A price can be at most 1,000,000 per 1,000 tokens.');

export const modelNameSchema = z
  .string({ error: 'Name the model.' })
  .trim()
  .min(1, 'Name the model.')
  .max(200, 'A model’s name is at most 200 characters.');

/** A model's price per 1,000 tokens in (the prompt) and out (the answer), in one currency. */
export const priceInputSchema = z.object({
  model: modelNameSchema,
  inputPer1k: priceSchema,
  outputPer1k: priceSchema,
});
export type PriceInput = z.input<typeof priceInputSchema>;

export const modelPriceSchema = z.object({
  model: z.string(),
  inputPer1k: z.number(),
  outputPer1k: z.number(),
  updatedAt: z.string(),
  /** Who set it last (their e-mail), when known. */
  updatedBy: z.string().nullable(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

export const pricesResponseSchema = z.object({ prices: z.array(modelPriceSchema) });
export type PricesResponse = z.infer<typeof pricesResponseSchema>;

export const priceParamsSchema = z.object({ model: modelNameSchema });

/**
 * The latency a bucket of `usage_latency_daily` (and `usage_tool_latency_daily`) stands for: its upper bound in ms. Bucket k
 * holds calls of at most 50 ms × 1.1^k (0: 50 ms or less; 120 holds everything slower), the
 * same rule as gem_latency_bucket in migration 0020.
 */
export function latencyOfBucket(k: number): number {
  return Math.round(50 * 1.1 ** Math.max(0, k));
}

/** The bucket holding the q-th quantile (0 < q ≤ 1) of counts by bucket (nearest rank); null for none. */
export function quantileBucket(counts: ReadonlyMap<number, number>, q: number): number | null {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bucket of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(bucket) ?? 0;
    if (seen >= rank) return bucket;
  }
  return null;
}

/**
 * The brand voice's style check over time (issue 31): per period and tool, how many generations
 * were checked, what was found per rule and the average score, from the `style_daily` rollup.
 * Counted per tool and day, not per person; the same range, period and tool as the usage page.
 */
const styleCountsSchema = z.record(z.enum(styleRuleIds), z.number().int());
const styleFiguresShape = {
  checked: z.number().int(),
  /** Findings of every rule together. */
  findings: z.number().int(),
  counts: styleCountsSchema,
  /** The mean score (0 to 100) of the checked generations; null when none was checked. */
  scoreAverage: z.number().nullable(),
};
export const usageStyleResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  by: z.enum(usagePeriods),
  totals: z.object(styleFiguresShape),
  series: z.array(z.object({ period: z.string(), tool: z.string(), ...styleFiguresShape })),
  tools: z.array(z.object({ tool: z.string(), ...styleFiguresShape })),
});
export type UsageStyleResponse = z.infer<typeof usageStyleResponseSchema>;
