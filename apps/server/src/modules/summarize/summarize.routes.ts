import {
  generatorPaths,
  summarizePromptRequestSchema,
  summarizePromptResponseSchema,
} from '@gem/contracts/generators';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { abortWhenClientLeaves } from '../../lib/http/ndjson';
import { generatorRoutes, type WritingToolRoutesOptions } from '../../lib/writing-tools/generator-routes';
import { userOf } from '../../plugins/auth';
import { summarizeGenerator } from './summarize.generator';

/** POST /api/generators/summarize (NDJSON stream) and its history. */
export const summarizeRoutes = generatorRoutes(summarizeGenerator);

/** Spec §7, kept for compatibility: `{ documentText }` in, `{ summary }` out, the same prompt. */
export const summarizePromptRoutes: FastifyPluginAsyncZod<WritingToolRoutesOptions> = async (
  app,
  { ai, writingTools },
) => {
  app.post(
    generatorPaths.summarizePrompt,
    {
      schema: { body: summarizePromptRequestSchema, response: { 200: summarizePromptResponseSchema } },
      preValidation: async () => ai.assertConfigured(),
    },
    async (req, reply) => ({
      summary: await writingTools.complete({
        userId: userOf(req).id,
        tool: summarizeGenerator.name,
        input: req.body,
        prompt: summarizeGenerator.prompt(req.body),
        reader: summarizeGenerator.reader,
        maxOutputTokens: summarizeGenerator.maxOutputTokens,
        signal: abortWhenClientLeaves(reply),
        log: req.log,
      }),
    }),
  );
};
