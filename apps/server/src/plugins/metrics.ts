import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../lib/metrics';

/**
 * Counts every answered request into the metrics (gem_http_request_duration_seconds) by method,
 * the route's pattern (`/api/markets/:marketId`, never the URL itself: no ids, no query) and
 * status. A callback hook with no label object: it runs on every request (bench/access-gate.md).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { metrics }: { metrics: Pick<Metrics, 'request'> }) => {
    app.addHook('onResponse', (req, reply, done) => {
      metrics.request(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime);
      done();
    });
  },
);
