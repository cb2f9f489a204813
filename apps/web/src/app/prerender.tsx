/**
 * Renders pages to HTML at build time (scripts/prerender.mjs builds this file for Node and
 * calls it), so a page's first paint does not wait for its JavaScript. The tree is the one
 * the browser renders (app.tsx) with a memory router at the page's path, signed out, with the
 * sign-in check still loading: what the browser's first render produces, so it can hydrate.
 */
import { prerender } from 'react-dom/static';
import { createMemoryRouter } from 'react-router';

import { collectDocumentTitles } from '@/hooks/use-document-title';

import { App } from './app';
import { preloadRoute, routes } from './router';

export type PrerenderedPage = {
  /** The path the page is served at. */
  path: string;
  /** The page's lazily loaded route module, as the Vite manifest names it: preloaded by the HTML. */
  module?: string;
};

/** The public pages, served as prerendered HTML (apps/server plugins/web-app.ts). */
export const publicPages: readonly PrerenderedPage[] = [
  { path: '/login' },
  { path: '/register' },
  { path: '/tools/qr-code-generator', module: 'src/app/routes/qr-code-generator.tsx' },
];

/**
 * The frame every other page starts in: at `/` the access gate covers it with the loading
 * screen until the session is known, as the browser's first render does on any gated page.
 */
export const shellPath = '/';

/**
 * The 404 page is rendered for this path; the server puts the path asked for in its place, and
 * the browser's render replaces the page with the same one.
 */
export const notFoundPath = '/__gem-not-found__';

export async function renderPage(path: string): Promise<{ html: string; title: string | undefined }> {
  await preloadRoute(path);
  let title: string | undefined;
  collectDocumentTitles((pageTitle) => {
    title = pageTitle;
  });
  try {
    const router = createMemoryRouter(routes, { initialEntries: [path] });
    const { prelude } = await prerender(<App router={router} />);
    const html = await new Response(prelude).text();
    return { html, title };
  } finally {
    collectDocumentTitles(undefined);
  }
}
