import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  TokenRejectedError,
  type RejectReason,
  type TokenVerifier,
  type VerifiedIdentity,
} from '../integrations/oidc/token-verifier';
import { sendError } from './errors';

/** The signed-in user of a request: looked up once, by the auth plugin. */
export type SignedInUser = {
  /** Their row in `users`: what services record and filter by. */
  id: string;
  identity: VerifiedIdentity;
  /** Whether they may use GEM (the app-access gate). */
  hasAccess: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth plugin in every scope it is registered in; null elsewhere. */
    user: SignedInUser | null;
  }
}

/** Who a verified identity is in GEM, and whether they may use it. */
export type Admission = { userId: string; hasAccess: boolean };

export type AuthPluginOptions = {
  verifier: TokenVerifier;
  /** Finds (or records) the user and decides their access. */
  admit(identity: VerifiedIdentity): Promise<Admission>;
  /** Users without app access get 403; without it a valid token is enough (the access check). */
  requireAccess: boolean;
};

const REALM = 'GEM';
// Token syntax of RFC 6750 §2.1 (the scheme is case-insensitive); anything else is not worth a signature check.
const BEARER = /^Bearer +([\w\-.~+/]+=*)$/i;

/**
 * Registered inside a scope, this puts every route of that scope behind a verified access
 * token (and, with an accessPolicy, behind hasAccess). It is scoped by plugin encapsulation,
 * never by URL prefix, so a route added to a protected scope cannot skip it.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, { verifier, admit, requireAccess }: AuthPluginOptions) => {
    app.decorateRequest('user', null);
    app.addHook('onRequest', async (req, reply) => {
      const header = req.headers.authorization;
      if (header === undefined) return reject(req, reply, 'token_missing');
      const match = BEARER.exec(header);
      if (!match?.[1]) return reject(req, reply, 'token_malformed');

      let identity: VerifiedIdentity;
      try {
        identity = await verifier.verify(match[1]);
      } catch (err) {
        if (err instanceof TokenRejectedError) return reject(req, reply, err.reason);
        throw err;
      }
      const { userId, hasAccess } = await admit(identity);
      req.user = { id: userId, identity, hasAccess };

      if (requireAccess && !hasAccess) {
        req.log.info({ reason: 'no_app_access' }, 'request refused');
        return sendError(reply, 403, 'forbidden', 'You are not permitted to use this application.');
      }
    });
  },
);

/** The user the auth plugin signed in; throws when a route was registered outside its scope. */
export function userOf(req: FastifyRequest): SignedInUser {
  if (!req.user) throw new Error('route needs the auth plugin in its scope');
  return req.user;
}

function reject(req: FastifyRequest, reply: FastifyReply, reason: RejectReason) {
  // Only the reason: never the token, the subject or the e-mail.
  req.log.info({ reason }, 'access token rejected');
  if (reason === 'keys_unavailable') {
    reply.header('retry-after', '10');
    return sendError(
      reply,
      503,
      'service_unavailable',
      'Sign-in cannot be checked right now. Please try again.',
    );
  }
  if (reason === 'insufficient_scope') {
    reply.header('www-authenticate', `Bearer realm="${REALM}", error="insufficient_scope"`);
    return sendError(reply, 403, 'forbidden', 'Your sign-in does not include access to GEM.');
  }
  // RFC 6750 §3.1: a request with no credentials gets the challenge without an error code.
  reply.header(
    'www-authenticate',
    reason === 'token_missing'
      ? `Bearer realm="${REALM}"`
      : `Bearer realm="${REALM}", error="invalid_token", error_description="The access token is invalid or has expired"`,
  );
  return sendError(reply, 401, 'unauthorized', 'Please sign in again.');
}
