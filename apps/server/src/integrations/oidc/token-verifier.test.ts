import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badTokens } from '../../../test/bad-tokens';
import {
  createEmbeddedTokenVerifier,
  createExternalTokenVerifier,
  TokenRejectedError,
  type RejectReason,
  type TokenVerifier,
} from './token-verifier';

const AUDIENCE = 'api://gem-test';
const CLIENT_ID = 'gem-spa-test';

async function reasonOf(verifier: TokenVerifier, token: string): Promise<RejectReason | 'accepted'> {
  try {
    await verifier.verify(token);
    return 'accepted';
  } catch (err) {
    if (err instanceof TokenRejectedError) return err.reason;
    throw err;
  }
}

describe('a generic OIDC issuer', () => {
  let issuer: OidcIssuer;
  let verifier: TokenVerifier;
  const good = (sub: string): JWTPayload => ({ sub, aud: AUDIENCE, azp: CLIENT_ID, scope: 'access' });

  beforeAll(async () => {
    issuer = await startOidcIssuer();
    verifier = createExternalTokenVerifier({
      issuer: issuer.issuer,
      audience: AUDIENCE,
      clientId: CLIENT_ID,
      requiredScope: undefined,
    });
  });
  afterAll(() => issuer.close());

  it('refuses each bad token for its own reason', async () => {
    for (const bad of await badTokens(issuer, good, { audience: AUDIENCE, clientId: CLIENT_ID })) {
      if (!bad.authorization?.startsWith('Bearer ')) continue;
      expect(await reasonOf(verifier, bad.authorization.slice(7)), bad.what).toBe(bad.reason);
    }
  });

  it('accepts a valid token and tolerates up to 60 s of clock skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    const identity = await verifier.verify(
      await issuer.sign({ ...good('u1'), email: 'Ann@Example.com', name: 'Ann', roles: ['GEM.User'] }),
    );
    expect(identity).toMatchObject({
      issuer: issuer.issuer,
      subject: 'u1',
      email: 'ann@example.com',
      name: 'Ann',
      roles: ['GEM.User'],
    });
    expect(await reasonOf(verifier, await issuer.sign(good('u1'), { expiresIn: -30 }))).toBe('accepted');
    expect(await reasonOf(verifier, await issuer.sign({ ...good('u1'), nbf: now + 30 }))).toBe('accepted');
  });

  it('ignores an e-mail the provider marks unverified', async () => {
    const identity = await verifier.verify(
      await issuer.sign({ ...good('u2'), email: 'boss@example.com', email_verified: false }),
    );
    expect(identity.email).toBeUndefined();
  });

  it('checks the required scope when one is configured (403, not 401)', async () => {
    const strict = createExternalTokenVerifier({
      issuer: issuer.issuer,
      audience: AUDIENCE,
      clientId: CLIENT_ID,
      requiredScope: 'gem.access',
    });
    expect(await reasonOf(strict, await issuer.sign(good('u1')))).toBe('insufficient_scope');
    expect(await reasonOf(strict, await issuer.sign({ ...good('u1'), scope: 'openid gem.access' }))).toBe(
      'accepted',
    );
  });
});

describe('JWKS caching', () => {
  it('keeps validating while the JWKS endpoint is down, and picks up a rotated key after the cooldown', async () => {
    const issuer = await startOidcIssuer({ alg: 'ES256' });
    let clock = Date.now();
    const verifier = createExternalTokenVerifier({
      issuer: issuer.issuer,
      audience: AUDIENCE,
      clientId: CLIENT_ID,
      requiredScope: undefined,
      now: () => clock,
    });
    const good = { aud: AUDIENCE, azp: CLIENT_ID, scope: 'access' };
    try {
      expect(await reasonOf(verifier, await issuer.sign(good))).toBe('accepted');
      expect(issuer.jwksRequests()).toBe(1);

      // Outage: cached keys still verify, even after the keys' maximum age has passed.
      issuer.setDown(true);
      clock += 2 * 60 * 60_000;
      expect(await reasonOf(verifier, await issuer.sign(good))).toBe('accepted');
      issuer.setDown(false);

      // Rotation: a token with the new kid triggers one refetch...
      clock += 6 * 60_000;
      await issuer.rotateKey();
      const requestsBefore = issuer.jwksRequests();
      expect(await reasonOf(verifier, await issuer.sign(good))).toBe('accepted');
      expect(issuer.jwksRequests()).toBe(requestsBefore + 1);

      // ...and within the next 5 minutes an unknown kid cannot make it fetch again.
      await issuer.rotateKey();
      clock += 60_000;
      expect(await reasonOf(verifier, await issuer.sign(good))).toBe('key_unknown');
      expect(await reasonOf(verifier, await issuer.sign(good))).toBe('key_unknown');
      expect(issuer.jwksRequests()).toBe(requestsBefore + 1);
      clock += 5 * 60_000;
      expect(await reasonOf(verifier, await issuer.sign(good))).toBe('accepted');
      expect(issuer.jwksRequests()).toBe(requestsBefore + 2);
    } finally {
      await issuer.close();
    }
  });

  it('answers keys_unavailable (503, not 401) when the keys were never loaded, but refuses what is no bearer token without them', async () => {
    const issuer = await startOidcIssuer();
    issuer.setDown(true);
    const verifier = createExternalTokenVerifier({
      issuer: issuer.issuer,
      audience: AUDIENCE,
      clientId: CLIENT_ID,
      requiredScope: undefined,
    });
    try {
      const token = await issuer.sign({ aud: AUDIENCE, scope: 'access' });
      for (const bad of [`${token} x`, `${token}é`, `a=b`, '', ' ', `${token}\n`]) {
        expect(await reasonOf(verifier, bad), JSON.stringify(bad)).toBe('token_malformed');
      }
      expect(await reasonOf(verifier, token)).toBe('keys_unavailable');
    } finally {
      await issuer.close();
    }
  });
});

describe('remembered tokens', () => {
  it('are the exact strings verified before, until their exp and for at most 5 minutes', async () => {
    const issuer = await startOidcIssuer({ alg: 'ES256' });
    const start = Date.now();
    let clock = start;
    const verifier = createExternalTokenVerifier({
      issuer: issuer.issuer,
      audience: AUDIENCE,
      clientId: CLIENT_ID,
      requiredScope: undefined,
      now: () => clock,
      refetchCooldownMs: 1_000,
    });
    const good = { aud: AUDIENCE, azp: CLIENT_ID, scope: 'access' };
    try {
      const hour = await issuer.sign({ ...good, sub: 'long' });
      const minute = await issuer.sign({ ...good, sub: 'short' }, { expiresIn: 60 });
      const first = await verifier.verify(hour);
      expect(first).toMatchObject({ subject: 'long' });
      expect(Object.isFrozen(first)).toBe(true);
      expect(await reasonOf(verifier, minute)).toBe('accepted');

      // Remembered: answered at once, without a promise.
      expect(verifier.verify(hour)).toBe(first);
      // A token that ends as a remembered one does but starts otherwise is not taken for it
      // (remembered tokens are looked up by their end), and does not push it out.
      const forged = `${hour.startsWith('e') ? 'f' : 'e'}${hour.slice(1)}`;
      expect(await reasonOf(verifier, forged)).not.toBe('accepted');
      expect(verifier.verify(hour)).toBe(first);

      // The issuer withdraws that key: a token of the new key makes GEM load the new key set.
      const oldKey = issuer.currentKey();
      await issuer.rotateKey();
      clock += 2_000;
      expect(await reasonOf(verifier, await issuer.sign(good))).toBe('accepted');
      // The tokens checked before are still known; another token of the withdrawn key is not.
      expect(await verifier.verify(hour)).toBe(first);
      expect(await reasonOf(verifier, minute)).toBe('accepted');
      expect(await reasonOf(verifier, await issuer.sign(good, { key: oldKey }))).toBe('key_unknown');

      // Past its exp a token is checked again (and its key is gone)...
      clock = start + 61_000;
      expect(await reasonOf(verifier, minute)).toBe('key_unknown');
      expect(await reasonOf(verifier, hour)).toBe('accepted');
      // ...and so is any token remembered for 5 minutes.
      clock = start + 5 * 60_000;
      expect(await reasonOf(verifier, hour)).toBe('key_unknown');
    } finally {
      await issuer.close();
    }
  });
});

describe('Microsoft Entra ID', () => {
  let entra: OidcIssuer;
  let verifier: TokenVerifier;
  let v1Issuer: string;
  // A delegated v2 access token as Entra issues it for GEM's API.
  const v2 = (extra: JWTPayload = {}): JWTPayload => ({
    aud: CLIENT_ID,
    azp: CLIENT_ID,
    scp: 'access_as_user',
    tid: entra.tenantId,
    oid: '11111111-2222-3333-4444-555555555555',
    sub: 'pairwise-subject',
    preferred_username: 'Ann.Nowak@contoso.example',
    email: 'someone-else@attacker.example',
    name: 'Ann Nowak',
    ver: '2.0',
    ...extra,
  });

  beforeAll(async () => {
    entra = await startOidcIssuer({ entra: true });
    v1Issuer = `https://sts.windows.net/${entra.tenantId}/`;
    verifier = createExternalTokenVerifier({
      issuer: entra.issuer,
      audience: CLIENT_ID,
      clientId: CLIENT_ID,
      requiredScope: 'access_as_user',
    });
  });
  afterAll(() => entra.close());

  it('accepts v2 tokens and identifies the user by oid, with the UPN as e-mail', async () => {
    const identity = await verifier.verify(await entra.sign(v2()));
    expect(identity).toMatchObject({
      issuer: entra.issuer,
      subject: '11111111-2222-3333-4444-555555555555',
      email: 'ann.nowak@contoso.example',
    });
  });

  it('accepts v1 tokens of the same tenant, recorded as the same user', async () => {
    const token = await entra.sign({
      ...v2({
        iss: v1Issuer,
        ver: '1.0',
        azp: undefined,
        appid: CLIENT_ID,
        preferred_username: undefined,
        upn: 'ann.nowak@contoso.example',
      }),
    });
    const identity = await verifier.verify(token);
    expect(identity).toMatchObject({ issuer: entra.issuer, subject: '11111111-2222-3333-4444-555555555555' });
  });

  it('refuses ID tokens, app-only tokens, other tenants, other clients and a missing scope', async () => {
    const cases: [string, JWTPayload, RejectReason][] = [
      [
        'an ID token (same aud, no scp, nonce)',
        { ...v2({ scp: undefined }), nonce: 'abc' },
        'not_an_access_token',
      ],
      ['an ID token without nonce', v2({ scp: undefined }), 'not_an_access_token'],
      [
        'an app-only token (roles, no scp)',
        v2({ scp: undefined, roles: ['GEM.User'] }),
        'not_an_access_token',
      ],
      ['another tenant', v2({ tid: '99999999-2222-3333-4444-555555555555' }), 'tenant_invalid'],
      [
        'a v1 issuer of another tenant',
        v2({ iss: 'https://sts.windows.net/99999999-2222-3333-4444-555555555555/' }),
        'issuer_invalid',
      ],
      ['another client', v2({ azp: 'other-app' }), 'client_not_allowed'],
      ['no client at all', v2({ azp: undefined }), 'client_not_allowed'],
      ['a missing scope', v2({ scp: 'User.Read' }), 'insufficient_scope'],
      ['no oid', v2({ oid: undefined }), 'subject_missing'],
    ];
    for (const [what, claims, reason] of cases) {
      expect(await reasonOf(verifier, await entra.sign(claims)), what).toBe(reason);
    }
  });
});

describe('the embedded provider', () => {
  it('accepts only at+jwt access tokens', async () => {
    const issuer = await startOidcIssuer({ alg: 'ES256' });
    try {
      const verifier = createEmbeddedTokenVerifier({
        issuer: issuer.issuer,
        audience: AUDIENCE,
        clientId: CLIENT_ID,
        publicKeys: { keys: [issuer.currentKey().publicJwk] },
        requiredScope: undefined,
      });
      const claims = { aud: AUDIENCE, client_id: CLIENT_ID, scope: 'gem.api' };
      expect(await reasonOf(verifier, await issuer.sign(claims, { header: { typ: 'at+jwt' } }))).toBe(
        'accepted',
      );
      expect(await reasonOf(verifier, await issuer.sign(claims, { header: { typ: 'JWT' } }))).toBe(
        'not_an_access_token',
      );
      expect(await reasonOf(verifier, await issuer.sign(claims, { header: { typ: undefined } }))).toBe(
        'not_an_access_token',
      );
      expect(
        await reasonOf(
          verifier,
          await issuer.sign({ ...claims, client_id: 'other' }, { header: { typ: 'at+jwt' } }),
        ),
      ).toBe('client_not_allowed');
    } finally {
      await issuer.close();
    }
  });
});
