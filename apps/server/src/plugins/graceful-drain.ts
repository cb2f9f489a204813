import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors';

/**
 * Once close() is called, requests that still arrive (on kept-alive connections) get a 503
 * in the error shape; requests already running finish before close() resolves.
 */
export const gracefulDrainPlugin = fp(async (app: FastifyInstance) => {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook: it runs on every request, and an async one costs a promise each time.
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    sendError(reply, 503, 'service_unavailable', 'The server is restarting. Please try again.');
  });
});
