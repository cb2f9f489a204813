import {
  adminPaths,
  createAccessRequestSchema,
  ownAccessRequestResponseSchema,
} from '@gem/contracts/admin-access';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userOf } from '../../plugins/auth';
import type { AdminAccess } from './admin-access.service';

/**
 * The requester's side of access requests (GET and POST /api/identity/access-request): a
 * signed-in user whom GEM does not let in yet asks for access from the Access Denied page and
 * sees the outcome. Registered in app.ts's token-only scope, beside the access check.
 */
export const accessRequestRoutes: FastifyPluginAsyncZod<{ service: AdminAccess }> = async (
  app,
  { service },
) => {
  app.get(
    adminPaths.accessRequest,
    { schema: { response: { 200: ownAccessRequestResponseSchema } } },
    (req) => service.ownRequest({ userId: userOf(req).id, hasAccess: userOf(req).hasAccess }),
  );

  app.post(
    adminPaths.accessRequest,
    {
      schema: {
        body: createAccessRequestSchema,
        response: { 200: ownAccessRequestResponseSchema, 201: ownAccessRequestResponseSchema },
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      const { created, ...answer } = await service.requestAccess(req.body, {
        userId: user.id,
        email: user.identity.email ?? null,
        ip: req.ip,
        hasAccess: user.hasAccess,
      });
      return reply.code(created ? 201 : 200).send(answer);
    },
  );
};
