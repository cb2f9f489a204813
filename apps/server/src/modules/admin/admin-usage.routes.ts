import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminUsage } from './admin-usage.service';

/** The admin area's usage: administrators only (registered in app.ts's admin scope). */
export const adminUsageRoutes: FastifyPluginAsyncZod<{ service: AdminUsage }> = async (app, { service }) => {
  void app;
  void service;
};
