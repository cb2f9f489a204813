import {
  brandProfileResponseSchema,
  brandVoicePaths,
  styleCheckRequestSchema,
  styleCheckSchema,
} from '@gem/contracts/brand-voice';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BrandVoice } from '../../lib/brand-voice/brand-voice';

/**
 * The brand voice for everyone with access (issue 31): the style check of any text against the
 * profile in force (the 'Check text' page and every Check button), and the profile to read.
 * The administrators' side (saving versions, comparing them) is modules/admin's.
 */
export const brandVoiceRoutes: FastifyPluginAsyncZod<{ brandVoice: BrandVoice }> = async (
  app,
  { brandVoice },
) => {
  app.post(
    brandVoicePaths.check,
    { schema: { body: styleCheckRequestSchema, response: { 200: styleCheckSchema } } },
    (req) => brandVoice.checkText(req.body.text, req.body.target),
  );
  app.get(
    brandVoicePaths.profile,
    { schema: { response: { 200: brandProfileResponseSchema } } },
    async () => ({
      current: await brandVoice.version('current'),
    }),
  );
};
