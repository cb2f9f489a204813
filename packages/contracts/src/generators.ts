import { z } from 'zod';

import { INPUT_CHARACTER_LIMIT, isStorableText, unstorableTextMessage } from './text-rules';

/**
 * The AI writing tools (spec §2 Article, Paid ads, Social post, Teaser; §4 "Generators";
 * §5 prompt rules). The browser sends a tool's fields; the server builds the Polish prompt,
 * streams the answer, enforces the limits and records the generation.
 */

/** Each generator, by the tool slug it serves (summarize belongs to the social post tool). */
export const generatorNames = [
  'article',
  'social-media-post',
  'paid-ads',
  'teaser-generator',
  'summarize',
] as const;
export const generatorNameSchema = z.enum(generatorNames);
export type GeneratorName = z.infer<typeof generatorNameSchema>;

/** What the page shows on every answer of the built-in stand-in. */
export const DEMO_ANSWER_TEXT = 'Demo answer: no AI service is configured';

export const generatorPaths = {
  /** GET: is an AI service configured? (token and access required, like every tool call) */
  aiStatus: '/api/ai/status',
  /** POST the tool's input; the answer is an NDJSON stream of GenerationEvent lines. */
  generate: (name: GeneratorName) => `/api/generators/${name}` as const,
  /** GET the signed-in user's last 20 generations of this tool, newest first. */
  history: (name: GeneratorName) => `/api/generators/${name}/history` as const,
  /** Spec §7, kept for compatibility: a finished prompt in, `{ prediction }` out. */
  generatePrompt: '/api/data-processing/generate-prompt',
  /** Spec §7, kept for compatibility: `{ documentText }` in, `{ summary }` out. */
  summarizePrompt: '/api/data-processing/summarize-prompt',
} as const;

export {
  countCharacters,
  countWords,
  INPUT_CHARACTER_LIMIT,
  isStorableText,
  OUTPUT_CHARACTER_LIMIT,
  unstorableTextMessage,
  withoutBidiControls,
} from './text-rules';

/**
 * A string the database can store, refused otherwise with a message naming the field. Every
 * text field of every request that is recorded (the AI calls' inputs above all) starts here,
 * so a request that could not be recorded is refused before any model is called, e.g.
 * `storableText('The message').max(4_000)`.
 */
export const storableText = (label: string) =>
  z.string().refine(isStorableText, { error: unstorableTextMessage(label), abort: true });

/**
 * The text with each NUL character and each surrogate without its pair replaced by U+FFFD (the
 * replacement character), so the database can store it: for text GEM does not choose, such as
 * a model's answer, which is then shown as it is recorded.
 */
export function toStorableText(value: string): string {
  if (isStorableText(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1); // NaN past the end
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += value.slice(i, i + 2);
      i += 1;
    } else {
      out += unit === 0 || (unit >= 0xd800 && unit <= 0xdfff) ? '\ufffd' : value[i]!;
    }
  }
  return out;
}

const text = (label: string) =>
  storableText(label)
    .trim()
    .min(1, { error: `${label} is empty.` })
    .max(INPUT_CHARACTER_LIMIT, {
      error: `${label} is too long: at most ${INPUT_CHARACTER_LIMIT.toLocaleString('en')} characters.`,
    });

export const articleInputSchema = z.object({ content: text('The content'), task: text('The task') });
export const socialMediaPostInputSchema = z.object({
  /** The summary the Summarize step produced (it may be edited). */
  summary: text('The summary'),
  content: text('The content'),
  description: text('The description'),
  /** Spec §9: the word limit, 200 (short, professional network) or 300 (long). */
  format: z.union([z.literal(200), z.literal(300)]),
  persona: z.literal('CEO'),
});
export const paidAdsInputSchema = z.object({ content: text('The content') });
export const teaserGeneratorInputSchema = z.object({ content: text('The content') });
export const summarizeInputSchema = z.object({ documentText: text('The document') });

export const generatorInputSchemas = {
  article: articleInputSchema,
  'social-media-post': socialMediaPostInputSchema,
  'paid-ads': paidAdsInputSchema,
  'teaser-generator': teaserGeneratorInputSchema,
  summarize: summarizeInputSchema,
} as const;
export type GeneratorInput<N extends GeneratorName> = z.infer<(typeof generatorInputSchemas)[N]>;

/** The finished output, after the limit checks. */
export const generationOutputSchema = z.object({
  /** What the page shows and copies (markdown). */
  text: z.string(),
  /** Paid ads only: the analysis part and the ad copy part (only the copy counts toward 600). */
  analysis: z.string().optional(),
  copy: z.string().optional(),
  /** What GEM decided about the answer and the page says (e.g. that the first of 3 variants is shown). */
  notes: z.array(z.string()).optional(),
  /** Written by the built-in stand-in (no AI service is configured): an example, marked as such. */
  demo: z.literal(true).optional(),
  /** The model went over the limit: it was asked once to shorten. */
  shortened: z.boolean(),
  /** Still over after that: cut at the last sentence end that fits. */
  truncated: z.boolean(),
});
export type GenerationOutput = z.infer<typeof generationOutputSchema>;

/** One line of the NDJSON stream a generate call answers with. */
export const generationEventSchema = z.discriminatedUnion('type', [
  /** More text as the model writes it (to append). */
  z.object({ type: z.literal('delta'), text: z.string() }),
  /** The model is being asked to shorten: the page clears what it showed. */
  z.object({ type: z.literal('restart') }),
  /** The final text: it replaces whatever was streamed. */
  z.object({ type: z.literal('final'), generationId: z.string(), output: generationOutputSchema }),
  /** The generation failed after the stream began (the error shape's code and message). */
  z.object({
    type: z.literal('error'),
    error: z.object({
      code: z.string(),
      message: z.string(),
      /** The service asked for a wait: the page counts down before a retry. */
      retryAfterSeconds: z.number().int().positive().optional(),
    }),
  }),
]);
export type GenerationEvent = z.infer<typeof generationEventSchema>;

export const aiStatusResponseSchema = z.object({
  configured: z.boolean(),
  /** e.g. 'openai', 'azure', 'anthropic', 'openai-compatible'; 'demo' for the built-in stand-in. */
  provider: z.string().nullable(),
  /** The built-in stand-in answers (no AI service is configured): its answers are examples. */
  demo: z.boolean().optional(),
  model: z.string().nullable(),
});
export type AiStatusResponse = z.infer<typeof aiStatusResponseSchema>;

export const generationRecordSchema = z.object({
  id: z.string(),
  generator: generatorNameSchema,
  createdAt: z.iso.datetime({ offset: true }),
  /** The tool's input as it was sent. */
  input: z.record(z.string(), z.unknown()),
  output: generationOutputSchema.nullable(),
  outcome: z.enum(['succeeded', 'failed', 'cancelled']),
});
export type GenerationRecord = z.infer<typeof generationRecordSchema>;

export const generationHistoryResponseSchema = z.object({ items: z.array(generationRecordSchema).max(20) });
export type GenerationHistoryResponse = z.infer<typeof generationHistoryResponseSchema>;

// Spec §7 compatibility calls.
export const generatePromptRequestSchema = z.object({ userPrompt: text('The prompt') });
export const generatePromptResponseSchema = z.object({ prediction: z.string() });
export const summarizePromptRequestSchema = z.object({ documentText: text('The document') });
export const summarizePromptResponseSchema = z.object({ summary: z.string() });
