import {
  BRAND_PROFILE_TOO_LARGE_MESSAGE,
  brandProfileResponseSchema,
  brandProfileSaveSchema,
  brandVersionParamsSchema,
  brandVersionSchema,
  brandVersionsResponseSchema,
  brandVoicePaths,
} from '@gem/contracts/brand-voice';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { actorOf } from './admin-access.routes';
import type { AdminBrandVoice } from './admin-brand-voice.service';

/**
 * The administrators' brand profile (issue 31; registered in app.ts's admin scope): GET the
 * version in force, PUT a new version ({ profile, note?, basedOn }: 409 when someone saved
 * another since `basedOn`), GET every version and one version to compare. Each save is audited.
 */
export const adminBrandVoiceRoutes: FastifyPluginAsyncZod<{ service: AdminBrandVoice }> = async (
  app,
  { service },
) => {
  const response = { 200: brandProfileResponseSchema };

  app.get(brandVoicePaths.adminProfile, { schema: { response } }, () => service.current());

  app.put(
    brandVoicePaths.adminProfile,
    {
      schema: { body: brandProfileSaveSchema, response },
      bodyLimit: service.bodyLimit,
      // A profile too large to read is told what the limit is, not just that it is too large;
      // every other error goes on to the app's handler.
      errorHandler(err: FastifyError) {
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          throw new AppError(413, 'payload_too_large', BRAND_PROFILE_TOO_LARGE_MESSAGE);
        }
        throw err;
      },
    },
    (req) => service.save(req.body, actorOf(req)),
  );

  app.get(brandVoicePaths.adminVersions, { schema: { response: { 200: brandVersionsResponseSchema } } }, () =>
    service.versions(),
  );

  app.get(
    brandVoicePaths.adminVersion,
    { schema: { params: brandVersionParamsSchema, response: { 200: brandVersionSchema } } },
    (req) => service.version(req.params.version),
  );
};
