import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminAudit } from './admin-audit.service';

/** The admin area's audit: administrators only (registered in app.ts's admin scope). */
export const adminAuditRoutes: FastifyPluginAsyncZod<{ service: AdminAudit }> = async (app, { service }) => {
  void app;
  void service;
};
