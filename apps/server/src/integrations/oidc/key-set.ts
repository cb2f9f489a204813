import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

/** Thrown when no signing keys could ever be loaded: the caller answers 503, not 401. */
export class KeysUnavailableError extends Error {
  constructor(options?: ErrorOptions) {
    super('the identity provider signing keys could not be loaded', options);
    this.name = 'KeysUnavailableError';
  }
}

export type RemoteKeySetOptions = {
  jwksUri: string;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  /** At most one fetch per this window, whatever triggers it (unknown kid, age). */
  refetchCooldownMs?: number;
  /** Keys older than this are refreshed on next use, so removed keys stop being trusted. */
  maxAgeMs?: number;
  /** While no keys were ever loaded, retry this often instead. */
  firstLoadRetryMs?: number;
  timeoutMs?: number;
  onRefreshFailed?: (reason: string) => void;
};

/**
 * A JWKS cache that keeps validating with the last good keys while the JWKS endpoint is
 * down, refetches on an unknown `kid` at most once per cooldown (so a flood of made-up
 * kids cannot hammer the provider), and picks up rotated keys.
 *
 * jose's createRemoteJWKSet drops its keys when a refresh fails, hence this wrapper.
 */
export function createCachedRemoteKeySet(options: RemoteKeySetOptions): JWTVerifyGetKey {
  const {
    jwksUri,
    fetch = globalThis.fetch,
    now = Date.now,
    refetchCooldownMs = 5 * 60_000,
    maxAgeMs = 60 * 60_000,
    firstLoadRetryMs = 10_000,
    timeoutMs = 5_000,
    onRefreshFailed = () => undefined,
  } = options;

  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = 0;
  let lastAttemptAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;

  const mayFetch = () => now() - lastAttemptAt >= (keys ? refetchCooldownMs : firstLoadRetryMs);

  function refresh(): Promise<void> {
    inFlight ??= (async () => {
      lastAttemptAt = now();
      const res = await fetch(jwksUri, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`JWKS endpoint answered ${res.status}`);
      const body = (await res.json()) as JSONWebKeySet;
      if (!body || !Array.isArray(body.keys)) throw new Error('JWKS endpoint answered no keys array');
      keys = createLocalJWKSet(body);
      fetchedAt = now();
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  const tryRefresh = async () => {
    try {
      await refresh();
      return true;
    } catch (err) {
      onRefreshFailed(err instanceof Error ? err.message : 'unknown error');
      return false;
    }
  };

  return async (header, token) => {
    if (!keys) {
      if (!mayFetch() || !(await tryRefresh()) || !keys) throw new KeysUnavailableError();
    } else if (now() - fetchedAt >= maxAgeMs && mayFetch()) {
      await tryRefresh();
    }
    const current = keys;
    try {
      return await current(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey) || !mayFetch()) throw err;
      if (!(await tryRefresh())) throw err;
      return keys(header, token);
    }
  };
}
