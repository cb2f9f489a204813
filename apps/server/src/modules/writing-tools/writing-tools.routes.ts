import {
  generatePromptRequestSchema,
  generatePromptResponseSchema,
  generationHistoryResponseSchema,
  summarizePromptRequestSchema,
  summarizePromptResponseSchema,
  writingToolInputSchemas,
  writingToolPaths,
  type WritingToolInput,
  type WritingToolName,
} from '@gem/contracts/writing-tools';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import { abortWhenClientLeaves, sendNdjson } from '../../lib/http/ndjson';
import { userOf } from '../../plugins/auth';
import { generatePromptPrompt } from './generate-prompt';
import type { WritingToolDefinition } from './generation-pipeline';
import { summarizeTool } from './summarize/summarize.tool';
import { toolCall, writingToolDefinitions } from './writing-tool-definitions';
import type { WritingTools } from './writing-tools.service';

export type WritingToolsRoutesOptions = { ai: AiPlatform; writingTools: WritingTools };

/**
 * The writing tools' routes: each tool's two (below), and the two spec §7 calls kept for
 * compatibility. Each answers 503 ai_not_configured without an AI service, whatever the body.
 * Register inside the protected scope.
 */
export const writingToolsRoutes: FastifyPluginAsyncZod<WritingToolsRoutesOptions> = async (app, options) => {
  for (const tool of Object.values(writingToolDefinitions))
    await app.register(writingToolRoutes(tool), options);
  await app.register(compatibilityRoutes, options);
};

/**
 * A tool's two routes: POST /api/writing-tools/<name> (its input, schema-checked; an NDJSON
 * stream back) and GET /api/writing-tools/<name>/history (the signed-in user's last 20).
 */
function writingToolRoutes<N extends WritingToolName>(
  definition: WritingToolDefinition<N>,
): FastifyPluginAsyncZod<WritingToolsRoutesOptions> {
  const { name } = definition;
  return async (app, { ai, writingTools }) => {
    app.post(
      writingToolPaths.generate(name),
      {
        schema: { body: writingToolInputSchemas[name] },
        compress: false,
        // Not configured: 503 whatever the body, so the page can say so at once.
        preValidation: async () => ai.assertConfigured(),
      },
      async (req, reply) => {
        const events = await writingTools.stream({
          userId: userOf(req).id,
          ...toolCall(definition, req.body as WritingToolInput<N>),
          signal: abortWhenClientLeaves(reply),
          log: req.log,
        });
        return sendNdjson(reply, events);
      },
    );
    app.get(
      writingToolPaths.history(name),
      { schema: { response: { 200: generationHistoryResponseSchema } } },
      (req) => writingTools.history(userOf(req).id, name),
    );
  };
}

/**
 * Spec §7, kept for compatibility: a finished prompt in, `{ prediction }` out; and
 * `{ documentText }` in, `{ summary }` out with the Summarize step's prompt.
 */
const compatibilityRoutes: FastifyPluginAsyncZod<WritingToolsRoutesOptions> = async (
  app,
  { ai, writingTools },
) => {
  app.post(
    writingToolPaths.generatePrompt,
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

  app.post(
    writingToolPaths.summarizePrompt,
    {
      schema: { body: summarizePromptRequestSchema, response: { 200: summarizePromptResponseSchema } },
      preValidation: async () => ai.assertConfigured(),
    },
    async (req, reply) => ({
      summary: await writingTools.complete({
        userId: userOf(req).id,
        tool: summarizeTool.name,
        input: req.body,
        prompt: summarizeTool.prompt(req.body),
        reader: summarizeTool.reader,
        maxOutputTokens: summarizeTool.maxOutputTokens,
        signal: abortWhenClientLeaves(reply),
        log: req.log,
      }),
    }),
  );
};
