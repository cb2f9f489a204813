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
  /** Whether they are one of GEM's administrators (GEM_ADMIN_EMAILS, GEM_ADMIN_ROLES). */
  isAdmin: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth plugin in every scope it is registered in; null elsewhere. */
    user: SignedInUser | null;
  }
}

/** Who a verified identity is in GEM, and whether they may use it. */
export type Admission = { userId: string; hasAccess: boolean; isAdmin: boolean };

export type AuthPluginOptions = {
  verifier: TokenVerifier;
  /**
   * Finds (or records) the user and decides their access: a remembered decision at once, a new
   * one through a promise.
   */
  admit(identity: VerifiedIdentity): Admission | Promise<Admission>;
  /** Users without app access get 403; without it a valid token is enough (the access check). */
  requireAccess: boolean;
  /** Only administrators: everyone else gets 403 (the admin area's scope). */
  requireAdmin?: boolean;
};

const REALM = 'GEM';
// The scheme of RFC 6750 §2.1 (case-insensitive). The token's own syntax is checked by the
// verifier, for a token it does not remember: a remembered one is known to be well formed.
const BEARER_SCHEME = /^Bearer +/i;

/**
 * Registered inside a scope, this puts every route of that scope behind a verified access
 * token (and, with an accessPolicy, behind hasAccess). It is scoped by plugin encapsulation,
 * never by URL prefix, so a route added to a protected scope cannot skip it.
 *
 * A callback hook: when the verifier remembers the token and the identity service remembers
 * the decision (almost every request), the request goes on at once, with no promise and no
 * microtask (bench/access-gate.md). A token or a decision that is not remembered is checked
 * through promises, and the request goes on (or is refused) when they settle.
 */
export const authPlugin = fp(
  async (
    app: FastifyInstance,
    { verifier, admit, requireAccess, requireAdmin = false }: AuthPluginOptions,
  ) => {
    /** Puts the user on the request; false when it has been refused (403 sent). */
    function admitted(
      req: FastifyRequest,
      reply: FastifyReply,
      identity: VerifiedIdentity,
      admission: Admission,
    ) {
      req.user = {
        id: admission.userId,
        identity,
        hasAccess: admission.hasAccess,
        isAdmin: admission.isAdmin,
      };
      if (requireAccess && !admission.hasAccess) {
        req.log.info({ reason: 'no_app_access' }, 'request refused');
        sendError(reply, 403, 'forbidden', 'You are not permitted to use this application.');
        return false;
      }
      if (requireAdmin && !admission.isAdmin) {
        req.log.info({ reason: 'not_admin' }, 'request refused');
        sendError(reply, 403, 'forbidden', 'Only GEM’s administrators can do this.');
        return false;
      }
      return true;
    }

    /** A token being verified: true when the request may go on. */
    async function verifiedLater(
      req: FastifyRequest,
      reply: FastifyReply,
      pending: Promise<VerifiedIdentity>,
    ): Promise<boolean> {
      let identity: VerifiedIdentity;
      try {
        identity = await pending;
      } catch (err) {
        if (err instanceof TokenRejectedError) {
          reject(req, reply, err.reason);
          return false;
        }
        throw err;
      }
      return admitted(req, reply, identity, await admit(identity));
    }

    app.decorateRequest('user', null);
    app.addHook('onRequest', (req, reply, done) => {
      const header = req.headers.authorization;
      // A refused request is answered here, and done is not called: the answer ends the request.
      if (header === undefined) return void reject(req, reply, 'token_missing');
      const scheme = BEARER_SCHEME.exec(header);
      if (!scheme || scheme[0].length === header.length) return void reject(req, reply, 'token_malformed');

      const identity = verifier.verify(header.slice(scheme[0].length));
      if (identity instanceof Promise) {
        verifiedLater(req, reply, identity).then((goOn) => goOn && done(), failed(done));
        return;
      }
      const admission = admit(identity);
      if (admission instanceof Promise) {
        admission.then((later) => admitted(req, reply, identity, later) && done(), failed(done));
        return;
      }
      if (admitted(req, reply, identity, admission)) done();
    });
  },
);

/** A rejection as the request's error (Fastify's error handler answers it), as an async hook's would be. */
const failed = (done: (err?: Error) => void) => (err: unknown) =>
  done(err instanceof Error ? err : new Error('the auth hook failed', { cause: err }));

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
