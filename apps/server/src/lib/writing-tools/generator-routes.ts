import {
  generationHistoryResponseSchema,
  generatorInputSchemas,
  generatorPaths,
  type GeneratorInput,
  type GeneratorName,
} from '@gem/contracts/generators';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userOf } from '../../plugins/auth';
import type { AiPlatform } from '../ai/ai-platform';
import { abortWhenClientLeaves, sendNdjson } from '../http/ndjson';
import type { AnswerReader, OutputLimit, Prompt } from './generation-pipeline';
import type { WritingTools } from './writing-tools.service';

/**
 * What a tool module defines: its prompt (Polish), how its answer is read (cleaned and split), the
 * limit it enforces, if any (or one that depends on the input), and the answer's size in tokens.
 */
export type GeneratorDefinition<N extends GeneratorName> = {
  name: N;
  prompt(input: GeneratorInput<N>): Prompt;
  reader: AnswerReader;
  limit?: OutputLimit | ((input: GeneratorInput<N>) => OutputLimit);
  /**
   * The most tokens the answer may take: sized to the output the prompt asks for, with room to
   * spare (GEM_AI_MAX_OUTPUT_TOKENS overrides it). An answer cut off by it is never shown whole.
   */
  maxOutputTokens: number;
};

export type WritingToolRoutesOptions = { ai: AiPlatform; writingTools: WritingTools };

/**
 * A tool's two routes: POST /api/generators/<name> (its input, schema-checked; an NDJSON
 * stream back) and GET /api/generators/<name>/history (the signed-in user's last 20).
 * Register inside the protected scope.
 */
export function generatorRoutes<N extends GeneratorName>(
  definition: GeneratorDefinition<N>,
): FastifyPluginAsyncZod<WritingToolRoutesOptions> {
  const { name } = definition;
  return async (app, { ai, writingTools }) => {
    app.post(
      generatorPaths.generate(name),
      {
        schema: { body: generatorInputSchemas[name] },
        compress: false,
        // Not configured: 503 whatever the body, so the page can say so at once.
        preValidation: async () => ai.assertConfigured(),
      },
      async (req, reply) => {
        const input = req.body as GeneratorInput<N>;
        const events = await writingTools.stream({
          userId: userOf(req).id,
          tool: name,
          input,
          prompt: definition.prompt(input),
          reader: definition.reader,
          limit: typeof definition.limit === 'function' ? definition.limit(input) : definition.limit,
          maxOutputTokens: definition.maxOutputTokens,
          signal: abortWhenClientLeaves(reply),
          log: req.log,
        });
        return sendNdjson(reply, events);
      },
    );
    app.get(
      generatorPaths.history(name),
      { schema: { response: { 200: generationHistoryResponseSchema } } },
      (req) => writingTools.history(userOf(req).id, name),
    );
  };
}
