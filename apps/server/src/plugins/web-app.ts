import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { isWebRoute } from '@gem/contracts/web-routes';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors';

export type WebAppOptions = { webDistDir: string };

/**
 * What the web build prerendered (apps/web/scripts/prerender.mjs writes `prerendered.json`):
 * the public pages' HTML by path, the 404 page, and the text in it that stands for the path.
 */
type PrerenderedManifest = {
  pages: Record<string, string>;
  notFound: string;
  notFoundPathMarker: string;
};

// The 404 page shows the path as the app does (app/routes/not-found.tsx): decoded, cut at 80.
const maxShownPathLength = 80;
function shownPath(pathname: string): string {
  let shown: string;
  try {
    shown = decodeURIComponent(pathname);
  } catch {
    shown = pathname;
  }
  return shown.length > maxShownPathLength ? `${cutAtGrapheme(shown, maxShownPathLength)}…` : shown;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Drops trailing slashes, as the router does: `/login/` is `/login`. */
function normalizePath(pathname: string): string {
  let end = pathname.length;
  while (end > 0 && pathname[end - 1] === '/') end -= 1;
  return pathname.slice(0, end) || '/';
}

/**
 * Serves the built SPA. Hashed assets are cached for a year. Pages are HTML rendered at build
 * time: the public pages (/login, /register, the QR code generator) as they look, so their
 * first paint needs no JavaScript; every other page route gets index.html, the app's frame
 * (200); unknown pages get the 404 page (404, so crawlers and monitors see it). The SPA takes
 * over from there. Unknown /api paths get the JSON error shape.
 */
export const webAppPlugin = fp(async (app: FastifyInstance, opts: WebAppOptions) => {
  const read = (file: string) => {
    const full = path.join(opts.webDistDir, file);
    return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
  };
  const indexHtml = read('index.html');
  const manifestText = read('prerendered.json');
  const manifest = manifestText === undefined ? undefined : (JSON.parse(manifestText) as PrerenderedManifest);
  const pages = new Map<string, string>();
  for (const [pagePath, file] of Object.entries(manifest?.pages ?? {})) {
    const html = read(file);
    if (html !== undefined) pages.set(pagePath, html);
  }
  const notFoundHtml = manifest ? read(manifest.notFound) : undefined;

  if (indexHtml === undefined) {
    app.log.warn({ webDistDir: opts.webDistDir }, 'web app is not built; run npm run build');
  } else {
    await app.register(fastifyStatic, {
      root: opts.webDistDir,
      index: false,
      wildcard: true,
      // The build writes .br and .gz beside each asset (apps/web/scripts/precompress.mjs):
      // sent as they are, so no asset is compressed again per request.
      preCompressed: true,
      // The prerendered pages are answered at their own paths only.
      allowedPath: (pathName) => !pathName.startsWith('/pages/') && pathName !== '/prerendered.json',
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendHtml = (reply: FastifyReply, status: number, html: string | undefined) =>
    html === undefined
      ? sendError(reply, 503, 'service_unavailable', 'The web app is not built yet.')
      : reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);

  /** The HTML for a page route: its prerendered page, or the app's frame. */
  const pageHtml = (pathname: string) => pages.get(normalizePath(pathname)) ?? indexHtml;

  app.get('/', (_req, reply) => sendHtml(reply, 200, indexHtml));
  for (const pagePath of pages.keys()) {
    app.get(pagePath, (_req, reply) => sendHtml(reply, 200, pageHtml(pagePath)));
  }

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !pathname.startsWith('/api/');
    // A missing file (it has an extension) is a plain 404, not the app shell.
    if (!isPage || path.extname(pathname) !== '') {
      return sendError(reply, 404, 'not_found', `Nothing is at ${req.method} ${pathname.slice(0, 200)}.`);
    }
    if (isWebRoute(pathname)) return sendHtml(reply, 200, pageHtml(pathname));
    if (notFoundHtml === undefined || !manifest) return sendHtml(reply, 404, indexHtml);
    return sendHtml(
      reply,
      404,
      // A function, so that `$&` and the like in the path stay text.
      notFoundHtml.replaceAll(manifest.notFoundPathMarker, () => escapeHtml(shownPath(pathname))),
    );
  });
});
