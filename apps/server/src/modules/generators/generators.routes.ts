import {
  aiStatusResponseSchema,
  generatePromptRequestSchema,
  generatePromptResponseSchema,
  generatorPaths,
} from '@gem/contracts/generators';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { abortWhenClientLeaves, type GeneratorRoutesOptions } from '../../lib/generations/generator-routes';
import { identityOf } from '../../plugins/auth';
import { generatePromptPrompt } from './generators.service';

/** GET /api/ai/status, and the spec §7 call that takes a finished prompt. */
export const generatorsRoutes: FastifyPluginAsyncZod<GeneratorRoutesOptions> = async (
  app,
  { generations },
) => {
  app.get(generatorPaths.aiStatus, { schema: { response: { 200: aiStatusResponseSchema } } }, () =>
    generations.status(),
  );

  app.post(
    generatorPaths.generatePrompt,
    {
      schema: { body: generatePromptRequestSchema, response: { 200: generatePromptResponseSchema } },
      preValidation: async () => generations.assertConfigured(),
    },
    async (req, reply) => ({
      prediction: await generations.complete({
        identity: identityOf(req),
        generator: 'generate-prompt',
        input: req.body,
        prompt: generatePromptPrompt(req.body.userPrompt),
        maxOutputTokens: 8192,
        signal: abortWhenClientLeaves(reply),
        log: req.log,
      }),
    }),
  );
};
