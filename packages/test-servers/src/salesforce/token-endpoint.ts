import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify, type CryptoKey, type KeyObject } from 'jose';
import { oauthError, randomAlnum, sendJson, type RecordedSalesforceRequest } from './http';

/**
 * `POST /services/oauth2/token`: the client-credentials grant (client id and secret in the form
 * body, as jsforce sends them, or in HTTP Basic auth), and the JWT bearer grant when a public key
 * is configured. Answers Salesforce's token response; failures are `{ error, error_description }`
 * with a 400.
 */

/** Access tokens issued, in order; an expired one answers 401 INVALID_SESSION_ID. */
export type Sessions = Map<string, { expired: boolean }>;

export type TokenEndpointOptions = {
  /** The server's URL: the instance URL, and an accepted JWT audience. */
  url: string;
  clientId: string;
  clientSecret: string;
  orgId: string;
  userId: string;
  sessions: Sessions;
  /** The `scope` of issued tokens; `api` unless given. */
  scope?: string;
  jwtPublicKey?: CryptoKey | KeyObject;
};

export function tokenEndpoint(options: TokenEndpointOptions) {
  const { url, clientId, clientSecret, orgId, userId, sessions } = options;

  const issueToken = (res: ServerResponse, recorded: RecordedSalesforceRequest) => {
    const accessToken = `${orgId.slice(0, 15)}!${randomAlnum(96)}`;
    sessions.set(accessToken, { expired: false });
    const id = `${url}/id/${orgId}/${userId}`;
    const issuedAt = String(Date.now());
    sendJson(res, recorded, 200, {
      access_token: accessToken,
      signature: createHmac('sha256', clientSecret)
        .update(id + issuedAt)
        .digest('base64'),
      scope: options.scope ?? 'api',
      instance_url: url,
      id,
      token_type: 'Bearer',
      issued_at: issuedAt,
    });
  };

  return async (
    req: IncomingMessage,
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    body: string,
  ) => {
    if (req.method !== 'POST') return oauthError(res, recorded, 400, 'invalid_request', 'must use HTTP POST');
    const form = Object.fromEntries(new URLSearchParams(body));
    recorded.form = form;
    let id = form.client_id;
    let secret = form.client_secret;
    const authorization = req.headers.authorization ?? '';
    if (authorization.toLowerCase().startsWith('basic ')) {
      const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) {
        id = decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' '));
        secret = decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' '));
      }
    }
    const grant = form.grant_type;
    if (!grant) return oauthError(res, recorded, 400, 'unsupported_grant_type', 'grant type not supported');
    if (grant === 'client_credentials') {
      if (id !== clientId)
        return oauthError(res, recorded, 400, 'invalid_client_id', 'client identifier invalid');
      if (secret !== clientSecret)
        return oauthError(res, recorded, 400, 'invalid_client', 'invalid client credentials');
      return issueToken(res, recorded);
    }
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && options.jwtPublicKey) {
      const assertion = form.assertion ?? '';
      try {
        const { payload } = await jwtVerify(assertion, options.jwtPublicKey, {
          algorithms: ['RS256'],
          audience: ['https://login.salesforce.com', 'https://test.salesforce.com', url],
          requiredClaims: ['iss', 'sub', 'aud', 'exp'],
        });
        if (payload.iss !== clientId) {
          return oauthError(res, recorded, 400, 'invalid_client_id', 'client identifier invalid');
        }
      } catch {
        return oauthError(res, recorded, 400, 'invalid_grant', 'invalid assertion');
      }
      return issueToken(res, recorded);
    }
    return oauthError(res, recorded, 400, 'unsupported_grant_type', 'grant type not supported');
  };
}
