import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server (apps/server) listens here in development.
const apiServer = 'http://localhost:3000';

// The policy apps/server sends in production. `vite preview` sends it too, so a build that
// would break under it (an inline script or style) shows up before it ships.
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

export default defineConfig({
  plugins: [react()],
  define: {
    // The footer's year in prerendered pages; the browser's first render uses the same to hydrate.
    'import.meta.env.VITE_BUILD_YEAR': JSON.stringify(String(new Date().getFullYear())),
  },
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    // Keep every asset a file: a data: URI would need a looser img-src/font-src.
    assetsInlineLimit: 0,
    // scripts/prerender.mjs reads it to link each prerendered page's own chunks, then removes it.
    manifest: true,
  },
  server: {
    proxy: {
      '/api': apiServer,
      '/oidc': apiServer,
    },
  },
  preview: {
    headers: { 'Content-Security-Policy': contentSecurityPolicy },
  },
});
