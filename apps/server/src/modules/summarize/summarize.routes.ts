import {
  generatorPaths,
  summarizePromptRequestSchema,
  summarizePromptResponseSchema,
} from '@gem/contracts/generators';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  abortWhenClientLeaves,
  generatorRoutes,
  type GeneratorRoutesOptions,
} from '../../lib/generations/generator-routes';
import { identityOf } from '../../plugins/auth';
import { summarizeGenerator } from './summarize.generator';

/** POST /api/generators/summarize (NDJSON stream) and its history. */
export const summarizeRoutes = generatorRoutes(summarizeGenerator);

/** Spec §7, kept for compatibility: `{ documentText }` in, `{ summary }` out, the same prompt. */
export const summarizePromptRoutes: FastifyPluginAsyncZod<GeneratorRoutesOptions> = async (
  app,
  { generations },
) => {
  app.post(
    generatorPaths.summarizePrompt,
    {
      schema: { body: summarizePromptRequestSchema, response: { 200: summarizePromptResponseSchema } },
      preValidation: async () => generations.assertConfigured(),
    },
    async (req, reply) => ({
      summary: await generations.complete({
        identity: identityOf(req),
        generator: summarizeGenerator.name,
        input: req.body,
        prompt: summarizeGenerator.prompt(req.body),
        maxOutputTokens: summarizeGenerator.maxOutputTokens,
        signal: abortWhenClientLeaves(reply),
        log: req.log,
      }),
    }),
  );
};
