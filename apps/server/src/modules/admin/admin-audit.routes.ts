import {
  adminPaths,
  auditQuerySchema,
  auditResponseSchema,
  auditRetentionBodySchema,
  auditRetentionResponseSchema,
} from '@gem/contracts/admin-audit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userOf } from '../../plugins/auth';
import type { AdminAudit } from './admin-audit.service';

/** The admin area's audit: administrators only (registered in app.ts's admin scope). */
export const adminAuditRoutes: FastifyPluginAsyncZod<{ service: AdminAudit }> = async (app, { service }) => {
  app.get(
    adminPaths.audit,
    { schema: { querystring: auditQuerySchema, response: { 200: auditResponseSchema } } },
    (req) => service.list(req.query),
  );

  app.put(
    adminPaths.auditRetention,
    { schema: { body: auditRetentionBodySchema, response: { 200: auditRetentionResponseSchema } } },
    (req) => {
      const user = userOf(req);
      return service.setRetention(req.body.days, {
        userId: user.id,
        email: user.identity.email ?? null,
        ip: req.ip,
      });
    },
  );
};
