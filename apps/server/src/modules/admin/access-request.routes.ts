import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminAccess } from './admin-access.service';

/**
 * The requester's side of access requests (GET and POST /api/identity/access-request): a
 * signed-in user whom GEM does not let in yet asks for access from the Access Denied page and
 * sees the outcome. Registered in app.ts's token-only scope, beside the access check.
 */
export const accessRequestRoutes: FastifyPluginAsyncZod<{ service: AdminAccess }> = async (app, { service }) => {
  void app;
  void service;
};
