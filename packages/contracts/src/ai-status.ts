import { z } from 'zod';

/**
 * Whether an AI service is configured, which every AI tool's page asks (the writing tools, the
 * brief creator, the audience builder). GET, token and access required like every tool call.
 */
export const aiStatusPath = '/api/ai/status';

/** What the page shows on every answer of the built-in stand-in. */
export const DEMO_ANSWER_TEXT = 'Demo answer: no AI service is configured';

export const aiStatusResponseSchema = z.object({
  configured: z.boolean(),
  /** e.g. 'openai', 'azure', 'anthropic', 'openai-compatible'; 'demo' for the built-in stand-in. */
  provider: z.string().nullable(),
  /** The built-in stand-in answers (no AI service is configured): its answers are examples. */
  demo: z.boolean().optional(),
  model: z.string().nullable(),
});
export type AiStatusResponse = z.infer<typeof aiStatusResponseSchema>;
