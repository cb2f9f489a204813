import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/**
 * A local OpenID issuer that speaks discovery and JWKS over HTTP, and mints tokens signed with
 * its own keys, so tests drive GEM's real token verification. It can play Microsoft Entra ID
 * (an Entra-shaped discovery document and issuer) and can take its JWKS endpoint down.
 */

type SigningKey = { kid: string; alg: 'ES256' | 'RS256'; privateKey: CryptoKey; publicJwk: JWK };

export type OidcIssuer = {
  /** The issuer URL, as discovery names it. */
  issuer: string;
  jwksUri: string;
  /** Entra mode: the tenant id in the issuer; v1 tokens use `https://sts.windows.net/<tenant>/`. */
  tenantId: string | undefined;
  /** How often the JWKS endpoint was asked. */
  jwksRequests(): number;
  /** While down, discovery and JWKS answer 503. */
  setDown(down: boolean): void;
  /** Makes a new signing key, published from now on; the old one leaves the JWKS. */
  rotateKey(): Promise<void>;
  currentKey(): SigningKey;
  /** A token signed with the current key; claims and header are merged over sane defaults. */
  sign(claims?: JWTPayload, options?: SignOptions): Promise<string>;
  close(): Promise<void>;
};

export type SignOptions = {
  header?: Record<string, unknown>;
  key?: SigningKey;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
};

async function newKey(alg: 'ES256' | 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export async function startOidcIssuer(
  options: { entra?: boolean; alg?: 'ES256' | 'RS256' } = {},
): Promise<OidcIssuer> {
  const alg = options.alg ?? 'RS256';
  let key = await newKey(alg);
  let down = false;
  let jwksCount = 0;
  const tenantId = options.entra ? randomUUID() : undefined;
  const issuerPath = tenantId ? `/${tenantId}/v2.0` : '/realms/gem';

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (down) return send(res, 503, { error: 'temporarily_unavailable' });
    if (path === `${issuerPath}/.well-known/openid-configuration`) {
      return send(res, 200, {
        issuer,
        jwks_uri: jwksUri,
        authorization_endpoint: `${base}${issuerPath}/authorize`,
        token_endpoint: `${base}${issuerPath}/token`,
        ...(tenantId ? { cloud_instance_name: 'microsoftonline.com', tenant_region_scope: 'EU' } : {}),
      });
    }
    if (path === `${issuerPath}/keys`) {
      jwksCount += 1;
      return send(res, 200, { keys: [key.publicJwk] });
    }
    return send(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}${issuerPath}`;
  const jwksUri = `${base}${issuerPath}/keys`;

  return {
    issuer,
    jwksUri,
    tenantId,
    jwksRequests: () => jwksCount,
    setDown: (value) => {
      down = value;
    },
    rotateKey: async () => {
      key = await newKey(alg);
    },
    currentKey: () => key,
    async sign(claims = {}, opts = {}) {
      const signer = opts.key ?? key;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: issuer,
        sub: 'subject-1',
        iat: now,
        exp: now + (opts.expiresIn ?? 3600),
        ...claims,
      })
        .setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: 'JWT', ...opts.header })
        .sign(signer.privateKey);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
