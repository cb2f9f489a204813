import { z } from 'zod';

import { styleCheckSchema } from './brand-voice';
import { formatCount } from './format-number';
import { storableText } from './storable-text';
import { INPUT_CHARACTER_LIMIT } from './text-rules';

/**
 * The writing tools (spec §2 Article, Paid ads, Social post, Teaser, and the social post's
 * Summarize step; §4 "Generators"; §5 prompt rules). The browser sends a tool's fields; the server builds the Polish prompt,
 * streams the answer, enforces the limits and records the generation.
 */

/** Each writing tool, by its slug (summarize is a step of the social post tool). */
export const writingToolNames = [
  'article',
  'social-media-post',
  'paid-ads',
  'teaser-generator',
  'summarize',
] as const;
export const writingToolNameSchema = z.enum(writingToolNames);
export type WritingToolName = z.infer<typeof writingToolNameSchema>;

export const writingToolPaths = {
  /** POST the tool's input; the answer is an NDJSON stream of GenerationEvent lines. */
  generate: (name: WritingToolName) => `/api/writing-tools/${name}` as const,
  /** GET the signed-in user's last 20 generations of this tool, newest first. */
  history: (name: WritingToolName) => `/api/writing-tools/${name}/history` as const,
  /** Spec §7, kept for compatibility: a finished prompt in, `{ prediction }` out. */
  generatePrompt: '/api/data-processing/generate-prompt',
  /** Spec §7, kept for compatibility: `{ documentText }` in, `{ summary }` out. */
  summarizePrompt: '/api/data-processing/summarize-prompt',
} as const;

const text = (label: string) =>
  storableText(label)
    .trim()
    .min(1, { error: `${label} is empty.` })
    .max(INPUT_CHARACTER_LIMIT, {
      error: `${label} is too long: at most ${formatCount(INPUT_CHARACTER_LIMIT)} characters.`,
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

export const writingToolInputSchemas = {
  article: articleInputSchema,
  'social-media-post': socialMediaPostInputSchema,
  'paid-ads': paidAdsInputSchema,
  'teaser-generator': teaserGeneratorInputSchema,
  summarize: summarizeInputSchema,
} as const;
export type WritingToolInput<N extends WritingToolName> = z.infer<(typeof writingToolInputSchemas)[N]>;

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
  z.object({
    type: z.literal('final'),
    generationId: z.string(),
    output: generationOutputSchema,
    /** The style check of the output against the brand profile in force (brand-voice.ts). */
    style: styleCheckSchema.optional(),
  }),
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

export const generationRecordSchema = z.object({
  id: z.string(),
  generator: writingToolNameSchema,
  createdAt: z.iso.datetime({ offset: true }),
  /** The tool's input as it was sent. */
  input: z.record(z.string(), z.unknown()),
  output: generationOutputSchema.nullable(),
  outcome: z.enum(['succeeded', 'failed', 'cancelled']),
  /**
   * The style check stored with the generation (issue 31), so an entry put back in the output
   * panel shows its findings; absent when none was stored or a stored one no longer reads.
   */
  style: styleCheckSchema.optional(),
});
export type GenerationRecord = z.infer<typeof generationRecordSchema>;

export const generationHistoryResponseSchema = z.object({ items: z.array(generationRecordSchema).max(20) });
export type GenerationHistoryResponse = z.infer<typeof generationHistoryResponseSchema>;

// Spec §7 compatibility calls.
export const generatePromptRequestSchema = z.object({ userPrompt: text('The prompt') });
export const generatePromptResponseSchema = z.object({ prediction: z.string() });
export const summarizePromptRequestSchema = z.object({ documentText: text('The document') });
export const summarizePromptResponseSchema = z.object({ summary: z.string() });
