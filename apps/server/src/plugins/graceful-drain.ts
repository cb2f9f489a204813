import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors';

/** How often a stopping server looks for connections that have gone idle, to close them. */
const IDLE_SWEEP_MS = 100;

/**
 * Once close() is called, requests that still arrive (on kept-alive connections) get a 503
 * in the error shape; requests already running finish before close() resolves.
 *
 * Behind a proxy that keeps connections to GEM open (nginx's `keepalive`), a connection that
 * was busy when the stop began goes idle once its answer is out, and would hold close() until
 * its keep-alive timeout. So while stopping, answers not yet sent say `Connection: close`, and
 * connections that have gone idle are closed as soon as they do: the process exits as soon as
 * its last request is done, and the proxy sends new requests to another instance.
 */
export const gracefulDrainPlugin = fp(async (app: FastifyInstance) => {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
  });
  // Callback hooks: they run on every request, and an async one costs a promise each time.
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    sendError(reply, 503, 'service_unavailable', 'The server is restarting. Please try again.');
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
});
