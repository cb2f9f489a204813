import {
  adminPaths,
  allowanceSetRequestSchema,
  allowancesResponseSchema,
  allowanceUserParamsSchema,
} from '@gem/contracts/admin-allowances';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userOf } from '../../plugins/auth';
import type { AdminAllowances } from './admin-allowances.service';

/**
 * The admin area's allowances: administrators only (registered in app.ts's admin scope). GET the
 * default, the overrides and everyone's month; PUT the default or a person's own (null: no
 * limit, or back to the default). Every change is audited with who, from where, before and after.
 */
export const adminAllowancesRoutes: FastifyPluginAsyncZod<{ service: AdminAllowances }> = async (
  app,
  { service },
) => {
  const response = { 200: allowancesResponseSchema };
  const actorOf = (req: Parameters<typeof userOf>[0]) => {
    const user = userOf(req);
    return { userId: user.id, email: user.identity.email ?? null, ip: req.ip };
  };

  app.get(adminPaths.allowances, { schema: { response } }, () => service.list());

  app.put(adminPaths.allowanceDefault, { schema: { body: allowanceSetRequestSchema, response } }, (req) =>
    service.setDefault(req.body.monthlyTokens, actorOf(req)),
  );

  app.put(
    adminPaths.allowanceUser,
    { schema: { params: allowanceUserParamsSchema, body: allowanceSetRequestSchema, response } },
    (req) => service.setForUser(req.params.userId, req.body.monthlyTokens, actorOf(req)),
  );
};
