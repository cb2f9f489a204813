import { toStorableText } from '@gem/contracts/storable-text';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { createAdapterFactory, deleteExpired } from './embedded/adapter';
import { createDeviceCookies } from './embedded/device-cookie';
import { createLocalAccounts, normalizeEmail, type LocalAccounts } from './embedded/local-accounts';
import { EMBEDDED_IDP_PREFIX, type EmbeddedIdpPluginOptions } from './embedded/plugin';
import { createEmbeddedProvider } from './embedded/provider';
import { deviceCookieKey, loadProviderSecrets, publicKeysOf } from './embedded/secrets';
import { createSignInThrottle, type ThrottleOptions } from './embedded/sign-in-throttle';
import {
  createEmbeddedTokenVerifier,
  createExternalTokenVerifier,
  type ExternalVerifierOptions,
  type TokenVerifier,
} from './token-verifier';

export type IdentityProvider = {
  verifier: TokenVerifier;
  /** Present when GEM runs its own provider (no GEM_OIDC_ISSUER). */
  embedded?: {
    accounts: LocalAccounts;
    pluginOptions: EmbeddedIdpPluginOptions;
    /** Sweeps expired provider state; call stop() on shutdown. */
    stop(): void;
  };
};

export type IdentityProviderOptions = {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** Test seams: the external issuer's fetch and clock, the throttle's limits. */
  external?: Pick<ExternalVerifierOptions, 'fetch' | 'now' | 'refetchCooldownMs'>;
  throttle?: ThrottleOptions;
};

/** The port in front of "who signed in": the embedded provider, or an external OIDC issuer. */
export async function createIdentityProvider(opts: IdentityProviderOptions): Promise<IdentityProvider> {
  const { config, db, log } = opts;
  const { auth } = config;
  if (auth.mode === 'external') {
    return {
      verifier: createExternalTokenVerifier({
        issuer: auth.issuer,
        audience: auth.audience,
        clientId: auth.clientId,
        requiredScope: auth.requiredScope,
        onKeyRefreshFailed: (reason) => log.warn({ reason }, 'identity provider keys could not be refreshed'),
        ...opts.external,
      }),
    };
  }

  // Defence in depth: config.ts already refuses this combination.
  if (config.env === 'production' && !auth.embeddedExplicit) {
    throw new Error(
      'The embedded identity provider does not run in production unless GEM_EMBEDDED_IDP=true.',
    );
  }
  const secrets = await loadProviderSecrets(db);
  const accounts = createLocalAccounts(db);
  // `npm run dev -w apps/web` serves the SPA elsewhere (the Vite dev server): only when
  // GEM_DEV_WEB_ORIGIN names it may sign-ins start and end there (config refuses it in production).
  const extraWebOrigins = auth.devWebOrigin && config.env !== 'production' ? [auth.devWebOrigin] : [];
  const provider = createEmbeddedProvider({
    issuer: auth.issuer,
    publicUrl: auth.publicUrl,
    clientId: auth.clientId,
    audience: auth.audience,
    apiScope: auth.scope,
    extraWebOrigins,
    secrets,
    accounts,
    adapter: createAdapterFactory(db),
    trustProxy: config.trustProxy,
  });
  const sweep = setInterval(() => {
    deleteExpired(db).catch((err: unknown) => log.warn({ err }, 'could not delete expired sign-in state'));
  }, 60 * 60_000);
  sweep.unref();

  return {
    verifier: createEmbeddedTokenVerifier({
      issuer: auth.issuer,
      audience: auth.audience,
      clientId: auth.clientId,
      publicKeys: publicKeysOf(secrets),
      requiredScope: auth.requiredScope,
    }),
    embedded: {
      accounts,
      pluginOptions: {
        provider,
        accounts,
        throttle: createSignInThrottle(db, opts.throttle),
        deviceCookies: createDeviceCookies({
          key: deviceCookieKey(secrets),
          path: `${EMBEDDED_IDP_PREFIX}/interaction/`,
          secure: auth.publicUrl.startsWith('https:'),
          ...(opts.throttle?.now ? { now: opts.throttle.now } : {}),
        }),
        publicUrl: auth.publicUrl,
        webOrigins: [auth.publicUrl, ...extraWebOrigins],
        csrfKey: secrets.cookieKeys[0]!,
        // Every sign-in on the form, in the audit log (issue 30): the e-mail typed, never the password.
        recordSignIn: (attempt) =>
          recordAudit(db, {
            action: attempt.succeeded ? 'sign-in.succeeded' : 'sign-in.failed',
            actor: { email: toStorableText(normalizeEmail(attempt.email)) || null },
            details: attempt.reason ? { reason: attempt.reason } : {},
            ip: attempt.ip,
          }),
      },
      stop: () => clearInterval(sweep),
    },
  };
}
