import { healthPaths, healthResponseSchema, readyResponseSchema } from '@gem/contracts/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HealthService } from './health.service';

export const healthRoutes: FastifyPluginAsyncZod<{ service: HealthService }> = async (app, { service }) => {
  app.get(healthPaths.health, { schema: { response: { 200: healthResponseSchema } } }, () =>
    service.health(),
  );
  app.get(healthPaths.ready, { schema: { response: { 200: readyResponseSchema } } }, () => service.ready());
};
