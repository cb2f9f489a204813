import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { createCachedRemoteKeySet, KeysUnavailableError } from './key-set';

/**
 * Who a verified access token speaks for. Users are told apart by issuer + subject only.
 * Frozen: one verified token's identity is shared by every request that carries it.
 */
export type VerifiedIdentity = {
  /** The identity namespace: the configured issuer (or EMBEDDED_ISSUER_KEY). */
  issuer: string;
  /** Entra: the object id (oid); elsewhere `sub`. */
  subject: string;
  /** For audit, display and the allowed-domain rule; never used to identify the user. */
  email: string | undefined;
  name: string | undefined;
  roles: string[];
  scopes: string[];
};

/**
 * Why a token was refused. Logged (never the token), and mapped to 401, 403 or 503.
 * insufficient_scope is 403 as RFC 6750 says; keys_unavailable is 503 so the SPA does not
 * sign the user out because the provider is unreachable.
 */
export type RejectReason =
  | 'token_missing'
  | 'token_malformed'
  | 'alg_not_allowed'
  | 'signature_invalid'
  | 'key_unknown'
  | 'token_expired'
  | 'token_not_yet_valid'
  | 'issuer_invalid'
  | 'audience_invalid'
  | 'claims_invalid'
  | 'not_an_access_token'
  | 'client_not_allowed'
  | 'tenant_invalid'
  | 'subject_missing'
  | 'insufficient_scope'
  | 'keys_unavailable';

export class TokenRejectedError extends Error {
  constructor(
    readonly reason: RejectReason,
    options?: ErrorOptions,
  ) {
    super(`access token rejected: ${reason}`, options);
    this.name = 'TokenRejectedError';
  }
}

/**
 * `verify` answers a token it remembers as verified at once, without a promise (the auth hook's
 * synchronous path, bench/access-gate.md); any other token through a promise, which rejects
 * with TokenRejectedError when the token is refused.
 */
export type TokenVerifier = { verify(token: string): VerifiedIdentity | Promise<VerifiedIdentity> };

/**
 * The users of the embedded provider keep their identity when GEM's public URL (and so the
 * embedded issuer URL) changes, so they are recorded under this fixed key.
 */
export const EMBEDDED_ISSUER_KEY = 'urn:gem:embedded-idp';

const ALGORITHMS = ['RS256', 'ES256'];
/** The most clock skew tolerated between GEM and the identity provider (seconds). */
export const CLOCK_TOLERANCE_SECONDS = 60;
// Claims only an ID token carries (OIDC Core §2, §3.1.3.6, §3.3.2.11).
const ID_TOKEN_CLAIMS = ['nonce', 'at_hash', 'c_hash', 's_hash'];

type Profile = 'embedded' | 'entra' | 'generic';

type Rules = {
  profile: Profile;
  issuers: string[];
  audience: string;
  clientId: string;
  requiredScope: string | undefined;
  identityIssuer: string;
  /** Entra: the tenant id every token's `tid` must carry. */
  tenantId?: string;
};

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const scopesOf = (p: JWTPayload): string[] => {
  const raw = p.scp ?? p.scope;
  return typeof raw === 'string' ? raw.split(' ').filter(Boolean) : strings(raw);
};
const asEmail = (v: unknown) => {
  const s = str(v);
  return s && /^[^\s@]+@[^\s@]+$/.test(s) ? s.toLowerCase() : undefined;
};

function reasonFor(err: unknown): RejectReason {
  if (err instanceof TokenRejectedError) return err.reason;
  if (err instanceof KeysUnavailableError) return 'keys_unavailable';
  if (err instanceof errors.JWTExpired) return 'token_expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return 'token_not_yet_valid';
    if (err.claim === 'iss') return 'issuer_invalid';
    if (err.claim === 'aud') return 'audience_invalid';
    if (err.claim === 'typ') return 'not_an_access_token';
    return 'claims_invalid';
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported)
    return 'alg_not_allowed';
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys)
    return 'key_unknown';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'signature_invalid';
  return 'token_malformed';
}

/** Checks that make an ID token, an app-only token or another client's token fail. */
function checkAccessTokenShape(header: { typ?: string }, payload: JWTPayload, rules: Rules) {
  const typ = header.typ?.toLowerCase().replace(/^application\//, '');
  if (rules.profile === 'embedded') {
    // RFC 9068: the embedded provider marks every access token `at+jwt` (jose checked it)
    // and names the client it was issued to.
    if (payload.client_id !== rules.clientId) throw new TokenRejectedError('client_not_allowed');
    return;
  }
  if (typ !== undefined && typ !== 'at+jwt' && typ !== 'jwt')
    throw new TokenRejectedError('not_an_access_token');
  if (ID_TOKEN_CLAIMS.some((c) => c in payload)) throw new TokenRejectedError('not_an_access_token');
  // Keycloak-style providers name the token kind in a `typ` claim.
  if (typeof payload.typ === 'string' && payload.typ.toLowerCase() === 'id') {
    throw new TokenRejectedError('not_an_access_token');
  }
  // A delegated access token always carries its scopes; ID tokens and app-only tokens do not.
  if (rules.profile === 'entra' ? typeof payload.scp !== 'string' : scopesOf(payload).length === 0) {
    throw new TokenRejectedError('not_an_access_token');
  }
  // Only tokens GEM's own SPA asked for (v2: azp, v1: appid).
  const client = str(payload.azp) ?? str(payload.appid);
  if (rules.profile === 'entra' && client === undefined) throw new TokenRejectedError('client_not_allowed');
  if (client !== undefined && client !== rules.clientId) throw new TokenRejectedError('client_not_allowed');
  if (rules.tenantId !== undefined && payload.tid !== rules.tenantId)
    throw new TokenRejectedError('tenant_invalid');
}

/** A verified token: who it speaks for, and until when (ms since the epoch, its `exp`). */
type Verified = { identity: VerifiedIdentity; expiresAt: number };

async function verifyWith(getKey: JWTVerifyGetKey, token: string, rules: Rules): Promise<Verified> {
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch (cause) {
    throw new TokenRejectedError('token_malformed', { cause });
  }
  try {
    const { payload } = await jwtVerify(token, getKey, {
      algorithms: ALGORITHMS,
      issuer: rules.issuers,
      audience: rules.audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'sub'],
      ...(rules.profile === 'embedded' ? { typ: 'at+jwt' } : {}),
    });
    checkAccessTokenShape(header, payload, rules);
    const scopes = scopesOf(payload);
    if (rules.requiredScope !== undefined && !scopes.includes(rules.requiredScope)) {
      throw new TokenRejectedError('insufficient_scope');
    }
    const subject = rules.profile === 'entra' ? str(payload.oid) : str(payload.sub);
    if (subject === undefined) throw new TokenRejectedError('subject_missing');
    const identity: VerifiedIdentity = {
      issuer: rules.identityIssuer,
      subject,
      email: emailOf(payload, rules.profile),
      name: str(payload.name),
      roles: Object.freeze(strings(payload.roles)) as string[],
      scopes: Object.freeze(scopes) as string[],
    };
    // requiredClaims made jose check that exp is there and a number.
    return { identity: Object.freeze(identity), expiresAt: (payload.exp ?? 0) * 1000 };
  } catch (err) {
    if (err instanceof TokenRejectedError) throw err;
    throw new TokenRejectedError(reasonFor(err), { cause: err });
  }
}

/**
 * Entra's `email` claim is not verified and any user may set it, so only the tenant-controlled
 * UPN counts there (v2 preferred_username, v1 upn). Elsewhere `email` unless marked unverified.
 */
function emailOf(p: JWTPayload, profile: Profile): string | undefined {
  if (profile === 'entra') return asEmail(p.preferred_username) ?? asEmail(p.upn);
  if (p.email_verified === false) return undefined;
  return asEmail(p.email);
}

/** How many verified tokens a verifier remembers; the oldest go first. */
export const MAX_CACHED_TOKENS = 10_000;
/** The longest a verified token is remembered, so a key the issuer withdraws stops counting. */
export const TOKEN_CACHE_MAX_AGE_MS = 5 * 60_000;
/** The syntax of a bearer token (RFC 6750 §2.1, b64token): anything else is not worth a signature check. */
const TOKEN_SYNTAX = /^[\w\-.~+/]+=*$/;
/**
 * A remembered token is looked up by its last characters (a JWT's signature, random) and then
 * compared whole: hashing the whole token (about 900 characters) for the look-up cost more than
 * the rest of the look-up (bench/access-gate.md). Tokens that share their end are told apart
 * by the comparison; the last one verified is the one remembered.
 */
const TOKEN_KEY_CHARS = 32;

/**
 * Remembers verified tokens by their exact string until their `exp` (at most
 * TOKEN_CACHE_MAX_AGE_MS): the same bearer token on the next request costs a map look-up
 * instead of a signature check, answered synchronously. Refused tokens are not remembered; any
 * other string, even one character off, goes through the full verification, after a syntax check.
 */
function remembering(
  verify: (token: string) => Promise<Verified>,
  now: () => number,
): TokenVerifier['verify'] {
  const verified = new Map<string, { token: string; identity: VerifiedIdentity; until: number }>();
  const keyOf = (token: string) => token.slice(-TOKEN_KEY_CHARS);
  async function verifyAndRemember(token: string) {
    if (!TOKEN_SYNTAX.test(token)) throw new TokenRejectedError('token_malformed');
    const { identity, expiresAt } = await verify(token);
    const at = now();
    const until = Math.min(expiresAt, at + TOKEN_CACHE_MAX_AGE_MS);
    if (until > at) {
      verified.set(keyOf(token), { token, identity, until });
      if (verified.size > MAX_CACHED_TOKENS) {
        const oldest = verified.keys().next().value;
        if (oldest !== undefined) verified.delete(oldest);
      }
    }
    return identity;
  }
  // Not async: a remembered token is answered without a promise.
  return (token) => {
    const key = keyOf(token);
    const known = verified.get(key);
    if (known && known.token === token) {
      if (known.until > now()) return known.identity;
      verified.delete(key);
    }
    return verifyAndRemember(token);
  };
}

/** Verifies tokens of GEM's embedded provider with its public keys, no HTTP involved. */
export function createEmbeddedTokenVerifier(opts: {
  issuer: string;
  audience: string;
  clientId: string;
  publicKeys: JSONWebKeySet;
  requiredScope: string | undefined;
  /** The clock remembered tokens expire by. */
  now?: () => number;
}): TokenVerifier {
  const getKey = createLocalJWKSet(opts.publicKeys);
  const rules: Rules = {
    profile: 'embedded',
    issuers: [opts.issuer],
    audience: opts.audience,
    clientId: opts.clientId,
    requiredScope: opts.requiredScope,
    identityIssuer: EMBEDDED_ISSUER_KEY,
  };
  return { verify: remembering((token) => verifyWith(getKey, token, rules), opts.now ?? Date.now) };
}

/**
 * Entra ID's discovery document names its cloud and a tenant-specific v2.0 issuer; that is
 * how GEM knows to apply the Entra rules (oid, scp, azp/appid, tid, v1 and v2 issuers).
 */
function entraTenantOf(doc: { issuer?: unknown; cloud_instance_name?: unknown }) {
  if (typeof doc.cloud_instance_name !== 'string' || typeof doc.issuer !== 'string') return undefined;
  const match = /\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/v2\.0$/i.exec(doc.issuer);
  return match?.[1] ? { tenantId: match[1].toLowerCase(), cloud: doc.cloud_instance_name } : undefined;
}

export type ExternalVerifierOptions = {
  issuer: string;
  audience: string;
  clientId: string;
  requiredScope: string | undefined;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  refetchCooldownMs?: number;
  onKeyRefreshFailed?: (reason: string) => void;
};

/**
 * Verifies tokens of an external issuer (Entra ID or any OIDC provider). The JWKS address
 * and the issuer come from discovery, read on first use and retried while it fails.
 */
export function createExternalTokenVerifier(opts: ExternalVerifierOptions): TokenVerifier {
  const { fetch = globalThis.fetch, now = Date.now } = opts;
  let ready: Promise<{ getKey: JWTVerifyGetKey; rules: Rules }> | undefined;
  let failedAt = Number.NEGATIVE_INFINITY;

  async function discover() {
    let base = opts.issuer;
    while (base.endsWith('/')) base = base.slice(0, -1);
    const url = `${base}/.well-known/openid-configuration`;
    const res = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown; cloud_instance_name?: unknown };
    // OIDC Discovery §4.3: the document must name the issuer it was fetched for.
    if (doc.issuer !== opts.issuer) throw new Error('discovery names a different issuer');
    // Keys only over https, except from an issuer on this machine (tests, local set-ups).
    const keysOver = new URL(opts.issuer).protocol === 'https:' ? /^https:\/\// : /^https?:\/\//;
    if (typeof doc.jwks_uri !== 'string' || !keysOver.test(doc.jwks_uri)) {
      throw new Error('discovery has no usable jwks_uri');
    }
    const entra = entraTenantOf(doc);
    const issuers = [opts.issuer];
    // Entra signs v1.0 tokens (accessTokenAcceptedVersion 1) with the tenant's sts.windows.net issuer.
    if (entra?.cloud === 'microsoftonline.com') issuers.push(`https://sts.windows.net/${entra.tenantId}/`);
    const rules: Rules = {
      profile: entra ? 'entra' : 'generic',
      issuers,
      audience: opts.audience,
      clientId: opts.clientId,
      requiredScope: opts.requiredScope,
      identityIssuer: opts.issuer,
      ...(entra ? { tenantId: entra.tenantId } : {}),
    };
    const getKey = createCachedRemoteKeySet({
      jwksUri: doc.jwks_uri,
      fetch,
      now,
      ...(opts.refetchCooldownMs !== undefined ? { refetchCooldownMs: opts.refetchCooldownMs } : {}),
      ...(opts.onKeyRefreshFailed ? { onRefreshFailed: opts.onKeyRefreshFailed } : {}),
    });
    return { getKey, rules };
  }

  async function load() {
    if (!ready) {
      if (now() - failedAt < 10_000) throw new TokenRejectedError('keys_unavailable');
      ready = discover().catch((cause: unknown) => {
        ready = undefined;
        failedAt = now();
        opts.onKeyRefreshFailed?.(cause instanceof Error ? cause.message : 'discovery failed');
        throw new TokenRejectedError('keys_unavailable', { cause });
      });
    }
    return ready;
  }

  return {
    verify: remembering(async (token) => {
      // Refuse garbage before any network call.
      try {
        decodeProtectedHeader(token);
      } catch (cause) {
        throw new TokenRejectedError('token_malformed', { cause });
      }
      const { getKey, rules } = await load();
      return verifyWith(getKey, token, rules);
    }, now),
  };
}
