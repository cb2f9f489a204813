import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { isWebRoute } from '@gem/contracts/web-routes';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors';

export type WebAppOptions = { webDistDir: string };

/**
 * Serves the built SPA. Hashed assets are cached for a year; index.html is answered for
 * every page route (200) and for unknown pages (404, so crawlers and monitors see it),
 * and the SPA shows its own 404 screen. Unknown /api paths get the JSON error shape.
 */
export const webAppPlugin = fp(async (app: FastifyInstance, opts: WebAppOptions) => {
  const indexFile = path.join(opts.webDistDir, 'index.html');
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  if (indexHtml === undefined) {
    app.log.warn({ webDistDir: opts.webDistDir }, 'web app is not built; run npm run build');
  } else {
    await app.register(fastifyStatic, {
      root: opts.webDistDir,
      index: false,
      wildcard: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendIndex = (reply: FastifyReply, status: number) =>
    indexHtml === undefined
      ? sendError(reply, 503, 'service_unavailable', 'The web app is not built yet.')
      : reply
          .code(status)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(indexHtml);

  app.get('/', (_req, reply) => sendIndex(reply, 200));

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !pathname.startsWith('/api/');
    // A missing file (it has an extension) is a plain 404, not the app shell.
    if (!isPage || path.extname(pathname) !== '') {
      return sendError(reply, 404, 'not_found', `Nothing is at ${req.method} ${pathname.slice(0, 200)}.`);
    }
    return sendIndex(reply, isWebRoute(pathname) ? 200 : 404);
  });
});
