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
 * CSP with no inline script, HSTS, nosniff and a strict referrer policy on every response;
 * no-store on every API response.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, opts: SecurityHeadersOptions) => {
  const headers = securityHeaders({
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
  // On every answer, errors and 404s included: set before the route runs.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
  // API answers are per user and per moment: never stored by the browser or a proxy.
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });
});
