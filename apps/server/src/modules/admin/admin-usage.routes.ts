import { Readable } from 'node:stream';
import {
  adminPaths,
  modelPriceSchema,
  priceInputSchema,
  priceParamsSchema,
  pricesResponseSchema,
  usageGenerationsQuerySchema,
  usageGenerationsResponseSchema,
  usageQuerySchema,
  usageResponseSchema,
  usageStyleResponseSchema,
} from '@gem/contracts/admin-usage';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userOf } from '../../plugins/auth';
import type { AdminUsageStyle } from './admin-usage-style.service';
import type { AdminUsage, PriceActor } from './admin-usage.service';

/** Who changes a price, for the audit log. */
const actorOf = (req: FastifyRequest): PriceActor => {
  const user = userOf(req);
  return { userId: user.id, email: user.identity.email ?? null, ip: req.ip };
};

/** The admin area's usage and prices: administrators only (registered in app.ts's admin scope). */
export const adminUsageRoutes: FastifyPluginAsyncZod<{
  service: AdminUsage;
  style: AdminUsageStyle;
}> = async (app, { service, style }) => {
  app.get(
    adminPaths.usage,
    { schema: { querystring: usageQuerySchema, response: { 200: usageResponseSchema } } },
    (req) => service.usage(req.query),
  );

  // What the brand voice's style check found, per period and tool (issue 31).
  app.get(
    adminPaths.usageStyle,
    { schema: { querystring: usageQuerySchema, response: { 200: usageStyleResponseSchema } } },
    (req) => style.style(req.query),
  );

  // The file is streamed as its rows are read, never held whole in memory.
  app.get(adminPaths.usageCsv, { schema: { querystring: usageQuerySchema } }, async (req, reply) => {
    const { fileName, body } = service.usageCsv(req.query);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(Readable.from(body));
  });

  app.get(
    adminPaths.usageGenerations,
    {
      schema: { querystring: usageGenerationsQuerySchema, response: { 200: usageGenerationsResponseSchema } },
    },
    (req) => service.generations(req.query),
  );

  app.get(adminPaths.prices, { schema: { response: { 200: pricesResponseSchema } } }, async () => ({
    prices: await service.prices(),
  }));

  app.put(
    adminPaths.prices,
    { schema: { body: priceInputSchema, response: { 200: modelPriceSchema } } },
    (req) => service.setPrice(req.body, actorOf(req)),
  );

  app.delete(
    adminPaths.price,
    { schema: { params: priceParamsSchema, response: { 200: z.object({ removed: z.literal(true) }) } } },
    async (req) => {
      await service.removePrice(req.params.model, actorOf(req));
      return { removed: true as const };
    },
  );
};
