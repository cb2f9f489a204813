import { adminPaths, integrationsResponseSchema } from '@gem/contracts/admin-integrations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminIntegrations } from './admin-integrations.service';

/** The admin area's integrations: administrators only (registered in app.ts's admin scope). */
export const adminIntegrationsRoutes: FastifyPluginAsyncZod<{ service: AdminIntegrations }> = async (
  app,
  { service },
) => {
  app.get(adminPaths.integrations, { schema: { response: { 200: integrationsResponseSchema } } }, () =>
    service.health(),
  );
};
