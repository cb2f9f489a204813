import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminAllowances } from './admin-allowances.service';

/** The admin area's allowances: administrators only (registered in app.ts's admin scope). */
export const adminAllowancesRoutes: FastifyPluginAsyncZod<{ service: AdminAllowances }> = async (app, { service }) => {
  void app;
  void service;
};
