import {
  accessChangeResponseSchema,
  accessListQuerySchema,
  accessListResponseSchema,
  accessRequestDecisionParamsSchema,
  accessRequestDecisionResponseSchema,
  accessRequestDecisionSchema,
  accessRequestsResponseSchema,
  adminPaths,
  grantAccessRequestSchema,
  revokeAccessRequestSchema,
} from '@gem/contracts/admin-access';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userOf } from '../../plugins/auth';
import type { AccessActor, AdminAccess } from './admin-access.service';
import type { FastifyRequest } from 'fastify';

/** The administrator making a change, as the audit log records them. */
export const actorOf = (req: FastifyRequest): AccessActor => {
  const user = userOf(req);
  return { userId: user.id, email: user.identity.email ?? null, ip: req.ip };
};

/** The admin area's access: administrators only (registered in app.ts's admin scope). */
export const adminAccessRoutes: FastifyPluginAsyncZod<{ service: AdminAccess }> = async (
  app,
  { service },
) => {
  app.get(
    adminPaths.access,
    { schema: { querystring: accessListQuerySchema, response: { 200: accessListResponseSchema } } },
    (req) => service.list(req.query),
  );

  app.post(
    adminPaths.accessGrants,
    { schema: { body: grantAccessRequestSchema, response: { 200: accessChangeResponseSchema } } },
    (req) => service.grant(req.body, actorOf(req)),
  );

  app.post(
    adminPaths.accessRevocations,
    { schema: { body: revokeAccessRequestSchema, response: { 200: accessChangeResponseSchema } } },
    (req) => service.revoke(req.body, actorOf(req)),
  );

  app.get(adminPaths.accessRequests, { schema: { response: { 200: accessRequestsResponseSchema } } }, () =>
    service.requests(),
  );

  app.post(
    adminPaths.accessRequestDecision,
    {
      schema: {
        params: accessRequestDecisionParamsSchema,
        body: accessRequestDecisionSchema,
        response: { 200: accessRequestDecisionResponseSchema },
      },
    },
    (req) => service.decide(req.params.requestId, req.body, actorOf(req)),
  );
};
