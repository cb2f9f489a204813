import { adminPaths, ownAllowanceResponseSchema } from '@gem/contracts/admin-allowances';
import { aiStatusPath, aiStatusResponseSchema } from '@gem/contracts/ai-status';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import { userOf } from '../../plugins/auth';

/**
 * GET /api/ai/status: whether an AI service is configured, which one, and whether it is the
 * built-in stand-in. GET /api/ai/allowance: the signed-in user's monthly AI allowance and what
 * is left of it (the tool pages' remaining line).
 */
export const aiStatusRoutes: FastifyPluginAsyncZod<{ ai: AiPlatform }> = async (app, { ai }) => {
  app.get(aiStatusPath, { schema: { response: { 200: aiStatusResponseSchema } } }, () => ai.status());
  app.get(
    adminPaths.allowance,
    { schema: { response: { 200: ownAllowanceResponseSchema } } },
    async (req) => {
      const allowance = await ai.allowanceOf(userOf(req).id);
      return { ...allowance, resetsAt: allowance.resetsAt.toISOString() };
    },
  );
};
