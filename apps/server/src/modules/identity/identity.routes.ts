import {
  authConfigResponseSchema,
  checkAppAccessResponseSchema,
  identityPaths,
} from '@gem/contracts/identity';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { constantAnswer } from '../../lib/http/serializer';
import { userOf } from '../../plugins/auth';
import type { IdentityService } from './identity.service';

/** Public: read by the SPA before anyone signs in. */
export const authConfigRoutes: FastifyPluginAsyncZod<{ service: IdentityService }> = async (
  app,
  { service },
) => {
  app.get(identityPaths.authConfig, { schema: { response: { 200: authConfigResponseSchema } } }, () =>
    service.authConfig(),
  );
};

// The check's three possible answers, each serialized once (lib/http/serializer.ts). isAdmin is
// there only for an administrator: everyone else gets the spec's answer as it is.
const hasAccess = constantAnswer({ hasAccess: true });
const adminAccess = constantAnswer({ hasAccess: true, isAdmin: true });
const noAccess = constantAnswer({ hasAccess: false });

/**
 * Needs a verified token but not hasAccess: it is how the SPA learns hasAccess. The auth plugin
 * of its scope admits as the gate does (a recent "yes" from memory, a "no" decided afresh, the
 * visit recorded at most once a minute), so the answer is the plugin's.
 */
export const checkAppAccessRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    identityPaths.checkAppAccess,
    // Its answer is 18 bytes, far under the compression threshold: no compression hooks.
    { schema: { response: { 200: checkAppAccessResponseSchema } }, compress: false },
    (req) => {
      const user = userOf(req);
      if (!user.hasAccess) return noAccess;
      return user.isAdmin ? adminAccess : hasAccess;
    },
  );
};
