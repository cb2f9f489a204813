import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminAccess } from './admin-access.service';

/** The admin area's access: administrators only (registered in app.ts's admin scope). */
export const adminAccessRoutes: FastifyPluginAsyncZod<{ service: AdminAccess }> = async (app, { service }) => {
  void app;
  void service;
};
