import { generateKeyPairSync, hkdfSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Db } from '../../../db/client';
import { oidcSecrets } from '../../../db/schema/index';

export type ProviderSecrets = {
  /** Private signing keys (ES256), newest first. */
  signingKeys: JWK[];
  /** Keys that sign the provider's cookies, newest first. */
  cookieKeys: string[];
};

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'ES256', use: 'sig' };
}

/**
 * Loads the provider's keys, making them at first start. Insert-if-absent then read, so
 * instances that start together all end up with the one set that won.
 */
export async function loadProviderSecrets(db: Db): Promise<ProviderSecrets> {
  const candidate: ProviderSecrets = {
    signingKeys: [await newSigningKey()],
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  await db.insert(oidcSecrets).values({ name: 'provider', value: candidate }).onConflictDoNothing();
  const [row] = await db.select().from(oidcSecrets).where(eq(oidcSecrets.name, 'provider'));
  if (!row) throw new Error('provider secrets were not stored');
  return row.value as ProviderSecrets;
}

/**
 * The key that signs the sign-in form's device cookies: derived from the provider's newest
 * cookie key, so every instance has it and nothing more is stored; its own, so a device cookie's
 * signature can never pass for a CSRF token or a provider cookie.
 */
export function deviceCookieKey(secrets: ProviderSecrets): Buffer {
  return Buffer.from(hkdfSync('sha256', secrets.cookieKeys[0]!, '', 'GEM sign-in device cookie', 32));
}

/** The public half of the signing keys, for verifying tokens in-process. */
export function publicKeysOf(secrets: ProviderSecrets): { keys: JWK[] } {
  return {
    keys: secrets.signingKeys.map(({ kty, crv, x, y, n, e, kid, alg, use }) => ({
      kty,
      crv,
      x,
      y,
      n,
      e,
      kid,
      alg,
      use,
    })),
  };
}
