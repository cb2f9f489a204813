import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

export type SecurityHeadersOptions = {
  production: boolean;
  /** Extra origins the browser may call (e.g. an external identity provider). */
  connectOrigins?: string[];
  /** Origins pages may show in an iframe (the brand checker); none when empty. */
  frameOrigins?: string[];
  /** More sources images may load from (feed item images), e.g. 'https:'. */
  imageSources?: string[];
};

/**
 * The headers helmet sets for these options. They depend on the options only (no nonce), so
 * they are worked out once, by running helmet's middleware against a response that records
 * them, instead of on every request: helmet's per-request work was a fifth of a small API
 * answer's cost (bench/access-gate.md).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * The headers of an API answer (JSON or NDJSON under /api), after the OWASP REST Security Cheat
 * Sheet: not stored, never framed, never sniffed as something else, HTTPS only, and not readable
 * by other sites' pages. The page policy (script, style, image and connect sources), referrer
 * policy, opener policy and the legacy ones concern documents; an API answer is never one
 * (docs/decisions/012-api-answer-headers-and-request-log-lines.md).
 */
export function apiSecurityHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  return {
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'strict-transport-security': pageHeaders['strict-transport-security'] ?? 'max-age=31536000',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/** Whether a request URL is an API answer's (web-app.ts draws the same line for 404s). */
export const isApiUrl = (url: string) => url.startsWith('/api/');

/**
 * Pages, files and the embedded provider: CSP with no inline script, HSTS, nosniff and a strict
 * referrer policy. API answers: the API set above, with no-store.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, opts: SecurityHeadersOptions) => {
  const pageHeaders = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // React's style prop goes through CSSOM, which CSP allows; no inline <style> is needed.
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(opts.imageSources ?? [])],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...(opts.connectOrigins ?? [])],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
        frameSrc: opts.frameOrigins?.length ? opts.frameOrigins : ["'none'"],
        // Over plain http://localhost this would break every request, so production only.
        upgradeInsecureRequests: opts.production ? [] : null,
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'same-origin' },
    // Sign-in opens the identity provider in a popup; 'same-origin' would cut the popup off.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  const apiHeaders = apiSecurityHeaders(pageHeaders);
  // On every answer, errors and 404s included: set before the route runs, which may still
  // replace one (a file's cache-control). A callback hook: no promise per request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isApiUrl(req.url) ? apiHeaders : pageHeaders);
    done();
  });
});
