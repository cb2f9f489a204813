import { createPublicKey } from 'node:crypto';
import type { OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { base64url, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { RejectReason } from '../src/integrations/oidc/token-verifier';

export type BadToken = { what: string; authorization: string | undefined; reason: RejectReason };

/**
 * Every way an access token can be wrong (the list and then some), each with the
 * reason GEM must give. `good(sub)` are the claims of a valid access token for `sub`.
 */
export async function badTokens(
  issuer: OidcIssuer,
  good: (sub: string) => JWTPayload,
  ids: { audience: string; clientId: string },
): Promise<BadToken[]> {
  const now = Math.floor(Date.now() / 1000);
  const valid = await issuer.sign(good('permitted'));
  const [header, , signature] = valid.split('.') as [string, string, string];
  const encode = (v: unknown) => base64url.encode(JSON.stringify(v));

  const attacker = await generateKeyPair('ES256', { extractable: true });
  const attackerJwk = { ...(await exportJWK(attacker.publicKey)), kid: 'attacker', alg: 'ES256' };
  const signAsAttacker = (extraHeader: Record<string, unknown>) =>
    new SignJWT({ iss: issuer.issuer, iat: now, exp: now + 600, ...good('permitted') })
      .setProtectedHeader({ alg: 'ES256', ...extraHeader })
      .sign(attacker.privateKey);
  // The classic key-confusion attack: the issuer's public key used as an HMAC secret.
  const publicPem = createPublicKey({ key: issuer.currentKey().publicJwk as never, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
  const hs256 = await new SignJWT({ iss: issuer.issuer, iat: now, exp: now + 600, ...good('permitted') })
    .setProtectedHeader({ alg: 'HS256', kid: issuer.currentKey().kid })
    .sign(new TextEncoder().encode(publicPem));

  const bearer = (t: string) => `Bearer ${t}`;
  return [
    { what: 'no token', authorization: undefined, reason: 'token_missing' },
    { what: 'another scheme', authorization: 'Basic YTpi', reason: 'token_malformed' },
    { what: 'a malformed token', authorization: bearer('not.a.jwt'), reason: 'token_malformed' },
    {
      what: 'alg none',
      authorization: bearer(
        `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...good('permitted'), iss: issuer.issuer, exp: now + 600 })}.`,
      ),
      reason: 'alg_not_allowed',
    },
    { what: 'HS256 signed with the public key', authorization: bearer(hs256), reason: 'alg_not_allowed' },
    {
      what: 'a bad signature',
      authorization: bearer(
        `${header}.${encode({ ...good('someone-else'), iss: issuer.issuer, exp: now + 600 })}.${signature}`,
      ),
      reason: 'signature_invalid',
    },
    {
      what: 'an expired token (past the 60 s tolerance)',
      authorization: bearer(await issuer.sign(good('permitted'), { expiresIn: -61 })),
      reason: 'token_expired',
    },
    {
      what: 'nbf in the future (past the 60 s tolerance)',
      authorization: bearer(await issuer.sign({ ...good('permitted'), nbf: now + 90 })),
      reason: 'token_not_yet_valid',
    },
    {
      what: 'the wrong issuer',
      authorization: bearer(await issuer.sign({ ...good('permitted'), iss: 'https://evil.example' })),
      reason: 'issuer_invalid',
    },
    {
      what: 'the wrong audience',
      authorization: bearer(await issuer.sign({ ...good('permitted'), aud: 'api://another-api' })),
      reason: 'audience_invalid',
    },
    {
      what: 'an unknown kid',
      authorization: bearer(await signAsAttacker({ kid: 'no-such-key' })),
      reason: 'key_unknown',
    },
    {
      what: 'a jku header pointing at the attacker',
      authorization: bearer(await signAsAttacker({ kid: 'attacker', jku: 'http://127.0.0.1:9/jwks.json' })),
      reason: 'key_unknown',
    },
    {
      what: 'an embedded jwk header',
      authorization: bearer(await signAsAttacker({ jwk: attackerJwk })),
      reason: 'key_unknown',
    },
    {
      what: 'an ID token with the API as audience',
      authorization: bearer(
        await issuer.sign({
          sub: 'permitted',
          aud: ids.audience,
          azp: ids.clientId,
          nonce: 'n-0S6_WzA2Mj',
          at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q',
          email: 'permitted@example.com',
        }),
      ),
      reason: 'not_an_access_token',
    },
    {
      what: 'an ID token without a nonce',
      authorization: bearer(await issuer.sign({ sub: 'permitted', aud: ids.audience, azp: ids.clientId })),
      reason: 'not_an_access_token',
    },
    {
      what: "an ID token for the SPA's client id",
      authorization: bearer(await issuer.sign({ sub: 'permitted', aud: ids.clientId, nonce: 'n' })),
      reason: 'audience_invalid',
    },
    {
      what: 'an access token another client asked for',
      authorization: bearer(await issuer.sign({ ...good('permitted'), azp: 'some-other-app' })),
      reason: 'client_not_allowed',
    },
  ];
}
