import {
  aiStatusResponseSchema,
  generatePromptRequestSchema,
  generatePromptResponseSchema,
  generatorPaths,
} from '@gem/contracts/generators';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { abortWhenClientLeaves } from '../../lib/http/ndjson';
import type { WritingToolRoutesOptions } from '../../lib/writing-tools/generator-routes';
import { userOf } from '../../plugins/auth';
import { generatePromptPrompt } from './generators.service';

/** GET /api/ai/status, and the spec §7 call that takes a finished prompt. */
export const generatorsRoutes: FastifyPluginAsyncZod<WritingToolRoutesOptions> = async (
  app,
  { ai, writingTools },
) => {
  app.get(generatorPaths.aiStatus, { schema: { response: { 200: aiStatusResponseSchema } } }, () =>
    ai.status(),
  );

  app.post(
    generatorPaths.generatePrompt,
    {
      schema: { body: generatePromptRequestSchema, response: { 200: generatePromptResponseSchema } },
      preValidation: async () => ai.assertConfigured(),
    },
    async (req, reply) => ({
      prediction: await writingTools.complete({
        userId: userOf(req).id,
        tool: 'generate-prompt',
        input: req.body,
        prompt: generatePromptPrompt(req.body.userPrompt),
        maxOutputTokens: 8192,
        signal: abortWhenClientLeaves(reply),
        log: req.log,
      }),
    }),
  );
};
