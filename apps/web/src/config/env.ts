/**
 * The only reader of import.meta.env. Everything else imports `env`, so the settings the web
 * app depends on are listed, and checked, in one place.
 */

declare global {
  interface ImportMetaEnv {
    /** Origin of the GEM API when it is not the page's own origin, e.g. `https://gem.example.com`. */
    readonly VITE_API_ORIGIN?: string;
    /** Set by vite.config.ts: the year the app was built, which the prerendered pages show. */
    readonly VITE_BUILD_YEAR?: string;
  }
}

function readApiOrigin(value: string | undefined): string {
  // Empty means same origin: apps/server serves the SPA and /api on one port, and the Vite
  // dev server proxies /api to it.
  if (value === undefined || value.trim() === '') return '';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`VITE_API_ORIGIN must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`VITE_API_ORIGIN must use http or https, got "${value}"`);
  }
  return url.origin;
}

export const env = {
  apiOrigin: readApiOrigin(import.meta.env.VITE_API_ORIGIN),
  isDevelopment: import.meta.env.DEV,
  /** The year of the build (tests and the dev server: this year). */
  buildYear: Number(import.meta.env.VITE_BUILD_YEAR ?? new Date().getFullYear()),
} as const;
