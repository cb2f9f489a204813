import { aiStatusPath, aiStatusResponseSchema } from '@gem/contracts/ai-status';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AiPlatform } from '../../lib/ai/ai-platform';

/** GET /api/ai/status: whether an AI service is configured, which one, and whether it is the built-in stand-in. */
export const aiStatusRoutes: FastifyPluginAsyncZod<{ ai: AiPlatform }> = async (app, { ai }) => {
  app.get(aiStatusPath, { schema: { response: { 200: aiStatusResponseSchema } } }, () => ai.status());
};
