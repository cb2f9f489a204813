import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminIntegrations } from './admin-integrations.service';

/** The admin area's integrations: administrators only (registered in app.ts's admin scope). */
export const adminIntegrationsRoutes: FastifyPluginAsyncZod<{ service: AdminIntegrations }> = async (app, { service }) => {
  void app;
  void service;
};
